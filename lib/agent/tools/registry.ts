import type { ToolName } from '../events';
import { createFollowReferenceTool } from './follow-reference';
import { createGetDocumentMetadataTool } from './get-document-metadata';
import { createOpenCitationTool } from './open-citation';
import { createSearchDocsTool } from './search-docs';
import { createSearchSemanticTool } from './search-semantic';
import { createSearchTextTool } from './search-text';
import type { AgentTool, ToolContext } from './types';

/** Builds every tool for one run, each bound to the run's owner and state. */
export function createTools(ctx: ToolContext): Map<ToolName, AgentTool> {
  const tools = [
    createSearchDocsTool(ctx),
    createSearchTextTool(ctx),
    createSearchSemanticTool(ctx),
    createOpenCitationTool(ctx),
    createGetDocumentMetadataTool(ctx),
    createFollowReferenceTool(ctx),
  ];
  return new Map(tools.map((t) => [t.name, t]));
}
