import type { ToolName } from '../events';
import { createFollowReferenceTool } from './follow-reference';
import { createGetDocumentMetadataTool } from './get-document-metadata';
import { createOpenCitationTool } from './open-citation';
import { createReadOpeningTool } from './read-opening';
import { createSearchDocsTool } from './search-docs';
import { createSearchSectionsTool } from './search-sections';
import { createSearchSemanticTool } from './search-semantic';
import { createSearchTextTool } from './search-text';
import type { AgentTool, ToolContext } from './types';
import { createVisualInterpretationTool, withVisualFlags } from './visual-interpretation';

/** Builds every tool for one run, each bound to the run's owner and state. */
export function createTools(ctx: ToolContext): Map<ToolName, AgentTool> {
  const tools = [
    createSearchDocsTool(ctx),
    createSearchTextTool(ctx),
    createSearchSemanticTool(ctx),
    createOpenCitationTool(ctx),
    createGetDocumentMetadataTool(ctx),
    createFollowReferenceTool(ctx),
    createSearchSectionsTool(ctx),
    createVisualInterpretationTool(ctx),
    createReadOpeningTool(ctx),
  ].map((t) => withVisualFlags(t, ctx));
  return new Map(tools.map((t) => [t.name, t]));
}
