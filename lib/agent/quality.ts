import { supportRatio } from './grounding';
import { searchableQuestion } from './plan';
import type { AgentState } from './state';
import { citationMarkers, keyTerms, splitSentences, termCoverage } from './text';
import type { AnswerStyle } from './types';
import { admitsMissing, type ValidationResult } from './validate';

/**
 * Stage 8: scores an accepted answer on five 0-100 dimensions (grounding, citations, relevance,
 * structure, completeness). Below the threshold the run tries one remediation and keeps the better answer.
 */

export interface QualityScore {
  score: number;
  dimensions: { grounding: number; citations: number; relevance: number; structure: number; completeness: number };
  issues: string[];
}

export function scoreAnswer(
  answer: string,
  state: AgentState,
  validation: ValidationResult,
  style: AnswerStyle,
): QualityScore {
  const issues: string[] = [];
  const grounding = Math.round(supportRatio(answer, state) * 100) - Math.min(60, validation.errors.length * 20);
  if (!validation.passed) issues.push(`validation: ${validation.errors.map((e) => e.code).join(', ')}`);

  const claims = splitSentences(answer).filter(
    (s) => !/^\s*#/.test(s.text) && keyTerms(s.text).length >= 3 && !admitsMissing(s.text),
  );
  const cited = claims.filter((s) => citationMarkers(s.text).length > 0).length;
  const citations =
    claims.length === 0 ? (state.opened.length === 0 ? 100 : 50) : Math.round((cited / claims.length) * 100);
  if (citations < 80) issues.push('some claims carry no [n] citation');

  const terms = keyTerms(searchableQuestion(state.question));
  const relevance = terms.length === 0 ? 100 : Math.round(termCoverage(terms, answer) * 100);
  if (relevance < 50) issues.push("the answer does not address the question's main terms");

  let structure = 100;
  const sections = state.constraints.requiredSections;
  if (sections.length > 0) {
    const present = sections.filter((s) => answer.toLowerCase().includes(s.toLowerCase())).length;
    structure = Math.round((present / sections.length) * 100);
  } else if (style === 'bullet' && !/^\s*[-*•]\s/m.test(answer)) {
    structure = 50;
    issues.push('bullet style asked for, but no bullet points');
  }

  const admits = admitsMissing(answer);
  const completeness = admits ? 50 : 100;
  const dims = { grounding: Math.max(0, grounding), citations, relevance, structure, completeness };
  const score = Math.round((dims.grounding + dims.citations + dims.relevance + dims.structure + dims.completeness) / 5);
  return { score, dimensions: dims, issues };
}
