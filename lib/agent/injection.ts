import { analyze } from '@/lib/retrieval/analyzer';
import { keyTerms, splitSentences } from './text';

/**
 * Prompt-injection patterns, for questions and for retrieved text (indirect injection, BIPIA).
 * Retrieved text is never obeyed: matching chunks are flagged, and their instruction-like sentences are kept so
 * validation can catch an answer or a tool call that repeats them.
 */

/**
 * Patterns that make a question unsafe to process: instruction overrides, injected "system:" or "new instructions:"
 * turns, script and data URLs, prompt extraction, role and mode switches.
 */
export const QUESTION_INJECTION_PATTERNS: readonly RegExp[] = [
  /\b(?:ignore|disregard|forget|override)\s+(?:all\s+|any\s+|the\s+|your\s+|my\s+)*(?:previous|prior|above|earlier|preceding|system)\s+(?:instructions?|prompts?|rules?|messages?|context)/i,
  /\bdisregard\s+(?:the\s+|everything\s+|all\s+)?above\b/i,
  /\bforget\s+(?:all|everything)\b/i,
  /\bnew\s+instructions?\s*:/i,
  /(?:^|\n|\s)system\s*:/i,
  /<\s*\/?\s*script\b/i,
  /\bjavascript\s*:/i,
  /\bdata\s*:\s*[a-z]+\/[a-z0-9.+-]+\s*[;,]/i,
  /\b(?:reveal|print|show|repeat)\s+(?:me\s+)?(?:your|the)\s+(?:system\s+prompt|hidden\s+instructions|instructions\s+above)/i,
  /\byou\s+are\s+now\s+(?:a|an|in)\b/i,
  /\b(?:developer|jailbreak|DAN)\s+mode\b/i,
];

/** Extra patterns for retrieved text: instructions addressed to the assistant that answers. */
const CONTEXT_INJECTION_PATTERNS: readonly RegExp[] = [
  ...QUESTION_INJECTION_PATTERNS,
  /\b(?:in|to|into|within|throughout)\s+your\s+(?:response|reply|answer|message|output|code|solution|codebase|implementation)\b/i,
  /\byour\s+(?:response|reply|answer|message|output)\s+(?:must|should|in|using|into)\b/i,
  /\b(?:encode|encrypt|translate|reverse|render|rewrite|express)\s+your\s+(?:response|reply|answer|message)/i,
  /\b(?:respond|reply|answer)\s+(?:only\s+)?(?:with|in|using)\s+(?:the\s+following|base\d+|emojis?|reverse|a\s+caesar)/i,
  /\b(?:assistant|chatbot|language\s+model|AI\s+model|LLM)\s*[,:]\s*(?:you\s+)?(?:must|should|please|now)\b/i,
  /\b(?:instead\s+of\s+answering|do\s+not\s+answer\s+the\s+(?:user|question))\b/i,
  /\b(?:following|below|subsequent)\s+code\s+(?:snippet|excerpt|block)\b.*\b(?:your|robust|augment|driving|advantageous)\b/i,
  /\b(?:call|use|invoke)\s+the\s+(?:search_docs|search_text|search_semantic|open_citation|follow_reference|get_document_metadata)\b/i,
];

/** True when the question contains an injection pattern. */
export function isInjectedQuestion(question: string): boolean {
  return QUESTION_INJECTION_PATTERNS.some((p) => p.test(question));
}

/**
 * The instruction-like spans of retrieved text: each sentence matching a context pattern, extended over a
 * directly following code block (BIPIA's code attacks put the payload there). Empty for clean text.
 */
export function findInjectedSpans(text: string): string[] {
  if (!CONTEXT_INJECTION_PATTERNS.some((p) => p.test(text))) return [];
  const spans: string[] = [];
  for (const sentence of splitSentences(text)) {
    if (!CONTEXT_INJECTION_PATTERNS.some((p) => p.test(sentence.text))) continue;
    let span = sentence.text;
    const rest = text.slice(sentence.end);
    const fence = /^\s*(?::\s*)?```[^\n]*\n([\s\S]*?)```/.exec(rest);
    if (fence?.[1]) span += `\n${fence[1].trim()}`;
    spans.push(span);
  }
  // A pattern can span a sentence break; keep the whole text's first 300 chars as the span then.
  if (spans.length === 0) spans.push(text.slice(0, 300));
  return spans;
}

/**
 * True when a tool input copies planted text: a URL or e-mail from a planted span, or at least three of its own
 * terms (not the question's) of which most come from a planted span.
 */
export function copiesPlantedText(input: string, spans: readonly string[], question: string): boolean {
  if (spans.length === 0 || input.trim().length === 0) return false;
  const lowerInput = input.toLowerCase();
  const questionTerms = new Set(analyze(question));
  const own = keyTerms(input).filter((t) => !questionTerms.has(t));
  for (const span of spans) {
    for (const m of span.matchAll(/\b(?:https?:\/\/|www\.)\S+|[\w.+-]+@[\w-]+\.[\w.]+/gi)) {
      if (lowerInput.includes(m[0].replace(/[.,;)]+$/, '').toLowerCase())) return true;
    }
    if (own.length < 3) continue;
    const spanTerms = new Set(analyze(span));
    const shared = own.filter((t) => spanTerms.has(t)).length;
    if (shared >= 3 && shared / own.length >= 0.6) return true;
  }
  return false;
}

/** The text with every planted span cut out (for judging relevance on what the document really says). */
export function withoutSpans(text: string, spans: readonly string[]): string {
  let out = text;
  for (const span of spans)
    for (const part of span.split('\n')) if (part.trim().length > 0) out = out.split(part.trim()).join(' ');
  return out;
}
