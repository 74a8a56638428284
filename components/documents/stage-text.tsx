'use client';

import { stageLabel } from './document-view';
import { useEmbedderStatus } from './use-embedder-status';

/** A running document's stage in words that match the configuration (no "Embedding" without an embedder). */
export function StageText({ stage }: { stage: string }) {
  const { semanticSearch } = useEmbedderStatus();
  return <>{stageLabel(stage, { semanticSearch })}</>;
}
