import type { UIMessage } from 'ai';
import type { TraceEvent } from '@/lib/agent/events';
import type {
  AgentCitation,
  AgentMode,
  AgentStatus,
  Clarification,
  Confidence,
  Insufficiency,
} from '@/lib/agent/types';

/**
 * The one chat message type. The /api/chat route writes it (AI SDK UI message stream), the database stores its
 * parts, and the chat page reads it with `useChat<ChatMessage>()`.
 *
 * An assistant message carries:
 *  - text parts: the streamed draft(s); each draft attempt streams into its own text part;
 *  - `data-trace` parts, one per trace event id, written again with the same id to update the card in place
 *    (a tool_call becomes its tool_result, a validation verdict, a reprompt...);
 *  - one `data-result` part at the end: the grounded final answer, which supersedes the streamed draft text.
 */

export interface ChatResult {
  answerId: string;
  /** The final, validated and grounded answer (may differ from the streamed draft: invented markers stripped). */
  answer: string;
  citations: AgentCitation[];
  insufficiencies: Insufficiency[];
  clarification: Clarification | null;
  confidence: Confidence;
  safetyFlags: string[];
  strippedMarkers: number[];
  validated: boolean;
  status: AgentStatus;
  mode: AgentMode;
  recommendedMode: AgentMode;
  models: { decision: string | null; synthesis: string | null; embedding: string | null; extractive: boolean };
  timings: { totalMs: number; firstTokenMs: number | null };
}

export type ChatDataTypes = {
  trace: TraceEvent;
  result: ChatResult;
  /** Sent first: the conversation this exchange belongs to (created for a new chat) and the draft answer id. */
  session: { conversationId: string; answerId: string; title: string };
  /** A research run shown in the conversation (lib/research); the panel reads its state from the server. */
  research: { runId: string };
};

export interface ChatMetadata {
  createdAt?: string;
  answerId?: string;
  status?: 'running' | AgentStatus | 'interrupted';
}

export type ChatMessage = UIMessage<ChatMetadata, ChatDataTypes>;

export type { AgentMode };
