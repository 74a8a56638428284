import { DEFAULT_INSUFFICIENCY_PHRASE } from './constraints';
import { checkAnswer } from './gate/check';
import type { Unit } from './gate/units';
import type { AgentState } from './state';
import { missingParts, repeatsPlantedText, repeatsSuspectUncited, ungroundedTerms } from './validate';

/**
 * The best grounded version of a draft that the gate kept rejecting: markers to unopened sources are stripped,
 * then every unit the gate rejects (unverifiable quote or code, ungrounded number or technical term, uncited
 * claim, planted text) is removed, until the gate passes; required sections that end up missing and missing parts
 * are stated with the insufficiency phrase. The result still goes through the gate before it is delivered.
 */
export function bestGroundedVersion(draft: string, state: AgentState): { answer: string; removed: number } {
  const phrase = state.constraints.insufficiencyPhrase ?? DEFAULT_INSUFFICIENCY_PHRASE;
  const opened = state.opened.map((o) => o.chunk.text).join('\n');
  let answer = stripInvalidMarkers(draft, new Set(state.opened.map((o) => o.n)));
  let removed = 0;
  for (let round = 0; round < 4; round++) {
    const report = checkAnswer(answer, {
      question: state.question,
      opened: state.opened,
      insufficiencyPhrase: state.constraints.insufficiencyPhrase,
    });
    const bad = new Set(report.issues.map((i) => i.unit));
    report.units.forEach((u, i) => {
      if (u.kind === 'heading') return;
      if (repeatsPlantedText(u.text, state.injectedSpans, state.question) || repeatsSuspectUncited(u, state))
        bad.add(i);
      else if (u.kind !== 'code' && ungroundedTerms(u.text, opened).length > 0) bad.add(i);
    });
    if (bad.size === 0) break;
    removed += bad.size;
    answer = removeUnits(
      answer,
      report.units.filter((_, i) => bad.has(i)),
    );
  }
  answer = tidy(answer);
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

/** Removes [n] markers that point to no opened source (a list keeps its valid numbers). */
function stripInvalidMarkers(text: string, valid: ReadonlySet<number>): string {
  return text
    .replace(/\[(\d{1,3}(?:\s*,\s*\d{1,3})*)\]/g, (_all, inner: string) => {
      const kept = inner
        .split(',')
        .map((p) => Number.parseInt(p.trim(), 10))
        .filter((n) => valid.has(n));
      return kept.length > 0 ? `[${kept.join(', ')}]` : '\u0000';
    })
    .replace(/[ \t]*\u0000(?=[.,;:!?])/g, '')
    .replace(/[ \t]*\u0000[ \t]*/g, ' ');
}

/** Cuts the units' text out of `text` (whole blocks for code and block quotes), from the end backwards. */
function removeUnits(text: string, units: readonly Unit[]): string {
  const spans = units.map((u) => u.block ?? { start: u.start, end: u.end }).sort((a, b) => b.start - a.start);
  let out = text;
  for (const s of spans) {
    let end = s.end;
    // Take the markers that follow the unit along ("text. [1]").
    const trailing = /^[ \t]*(?:\[\d{1,3}(?:\s*,\s*\d{1,3})*\][.,;:]?[ \t]*)*/.exec(out.slice(end));
    if (trailing) end += trailing[0].length;
    out = out.slice(0, s.start) + out.slice(end);
  }
  return out;
}

/** Drops lines left empty by removals (bare bullets, empty table rows) and extra blank lines. */
function tidy(text: string): string {
  let inFence = false;
  return text
    .split('\n')
    .map((l) => {
      if (/^ {0,3}(?:`{3,}|~{3,})/.test(l)) inFence = !inFence;
      return inFence ? l : l.replace(/(?<=\S)[ \t]{2,}(?=\S)/g, ' ').replace(/[ \t]+$/, '');
    })
    .filter((l) => !/^\s*(?:[-*+\u2022]|\d{1,3}[.)])\s*$/.test(l) && !/^\s*(?:\|\s*)+$/.test(l))
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
