import { DEFAULT_INSUFFICIENCY_PHRASE } from './constraints';
import type { AgentState } from './state';
import { citationMarkers, keyTerms, splitSentences } from './text';
import {
  admitsMissing,
  evidenceText,
  extractQuotes,
  locateQuote,
  missingParts,
  repeatsPlantedText,
  ungroundedTerms,
} from './validate';

/**
 * The best grounded version of a draft that the gate kept rejecting: sentences with an unverifiable quote, an
 * ungrounded term, an invented citation only, planted text, or an uncited claim are removed; required sections
 * that end up empty and missing parts are stated with the insufficiency phrase.
 */
export function bestGroundedVersion(draft: string, state: AgentState): { answer: string; removed: number } {
  const evidence = evidenceText(state);
  const phrase = state.constraints.insufficiencyPhrase ?? DEFAULT_INSUFFICIENCY_PHRASE;
  const valid = new Set(state.opened.map((o) => o.n));
  const withoutBadFences = draft.replace(/```[^\n]*\n([\s\S]*?)```/g, (block) => {
    const quotes = extractQuotes(block).filter((q) => q.kind === 'fenced');
    return quotes.every((q) => locateQuote(state, { ...q, cites: [] })) ? block : '';
  });
  const kept: string[] = [];
  let removed = 0;
  for (const line of withoutBadFences.split('\n')) {
    if (/^\s*(?:#{1,6}\s|\*\*[^*]+\*\*\s*$|```)/.test(line) || line.trim() === '') {
      kept.push(line);
      continue;
    }
    const sentences = splitSentences(line);
    const good = sentences.filter((s) => {
      const quotesOk = extractQuotes(s.text).every((q) => locateQuote(state, q) !== null);
      const grounded = ungroundedTerms(s.text, evidence).length === 0;
      const planted = repeatsPlantedText(s.text, state.injectedSpans, state.question) !== null;
      const markers = citationMarkers(s.text);
      const validCite = markers.some((m) => valid.has(m.n));
      const claim = keyTerms(s.text).length >= 3 && !admitsMissing(s.text);
      return quotesOk && grounded && !planted && (validCite || !claim);
    });
    removed += sentences.length - good.length;
    if (good.length > 0)
      kept.push(
        `${/^\s*[-*•]\s/.test(line) && !/^\s*[-*•]\s/.test(good[0]?.text ?? '') ? '- ' : ''}${good.map((s) => s.text).join(' ')}`,
      );
  }
  let answer = kept
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  // Required sections: present and non-empty, or stated as missing.
  for (const section of state.constraints.requiredSections) {
    const re = new RegExp(`^\\s*(?:#{1,6}\\s*)?${section.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\b.*$`, 'im');
    if (!re.test(answer)) answer += `\n\n## ${section}\n${phrase}: the opened sources do not cover ${section}.`;
  }
  const missing = missingParts(state).filter((m) => !answer.toLowerCase().includes(`cover ${m.section.toLowerCase()}`));
  if (missing.length > 0 || answer.length === 0) {
    const what = missing.length > 0 ? missing.map((m) => m.section).join(', ') : 'the question';
    answer += `\n\n${phrase}: the opened sources do not cover ${what}.`;
  }
  return { answer: answer.trim(), removed };
}
