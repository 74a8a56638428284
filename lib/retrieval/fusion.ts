/** Reciprocal-rank fusion, shared by the embedded index and the Qdrant adapter's client-side fusion. */

export const RRF_K = 60;

export interface FusedCandidate {
  id: string;
  /** Sum over lists of 1 / (k + rank), rank 1-based. */
  score: number;
  /** 1-based rank of the id in each input list, null where it is absent (same order as the lists). */
  ranks: (number | null)[];
}

/**
 * Fuses ranked id lists (best first) by reciprocal rank: score(id) = Σ 1 / (k + rank).
 * An id repeated inside one list counts once, at its best rank. Ties are broken by the best single rank,
 * then by first appearance (earlier list, earlier position), so the result is deterministic.
 * Returns at most `limit` candidates (all when omitted), best first.
 */
export function reciprocalRankFusion(
  lists: ReadonlyArray<ReadonlyArray<string>>,
  options: { k?: number; limit?: number } = {},
): FusedCandidate[] {
  const k = options.k ?? RRF_K;
  if (!(k >= 0)) throw new RangeError('RRF k must be a non-negative number');
  const byId = new Map<string, { candidate: FusedCandidate; bestRank: number; firstSeen: number }>();
  let seen = 0;
  lists.forEach((list, listIndex) => {
    list.forEach((id, position) => {
      const rank = position + 1;
      let entry = byId.get(id);
      if (!entry) {
        entry = {
          candidate: { id, score: 0, ranks: lists.map(() => null) },
          bestRank: rank,
          firstSeen: seen++,
        };
        byId.set(id, entry);
      }
      if (entry.candidate.ranks[listIndex] !== null) return;
      entry.candidate.ranks[listIndex] = rank;
      entry.candidate.score += 1 / (k + rank);
      entry.bestRank = Math.min(entry.bestRank, rank);
    });
  });
  const fused = [...byId.values()].sort(
    (a, b) => b.candidate.score - a.candidate.score || a.bestRank - b.bestRank || a.firstSeen - b.firstSeen,
  );
  const limited = options.limit === undefined ? fused : fused.slice(0, Math.max(0, options.limit));
  return limited.map((entry) => entry.candidate);
}
