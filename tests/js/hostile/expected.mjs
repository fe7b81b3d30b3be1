// Known failures owned by other branches of issue #19. ONE list: after those branches merge, the
// integrator deletes the rows (or the whole list) and the harness must go fully green.
// Each row: entry point id, hostile value name ('*' = any), the failing outcome, owner branch, why.
export const EXPECTED_FAILURES = [
  // rel-core: quadratic answer metrics without a size limit (anls/rougeL/sentenceBleu, edit distances).
  { entry: 'metrics.anls', value: '1 MB string', outcome: 'hang', owner: 'rel-core', why: 'O(n·m) ANLS on 1 MB' },
  { entry: 'metrics.rougeL', value: '1 MB string', outcome: 'hang', owner: 'rel-core', why: 'O(n·m) LCS on 1 MB' },
  { entry: 'metrics.sentenceBleu', value: '1 MB string', outcome: 'hang', owner: 'rel-core', why: 'quadratic n-gram path on 1 MB' },
  { entry: 'metrics.evidenceContainment', value: '1 MB string', outcome: 'hang', owner: 'rel-core', why: 'unbounded Sellers alignment (edit distance) in evidence_containment' },
  { entry: 'metrics.evidenceContainment', value: '50 MB string', outcome: 'hang', owner: 'rel-core', why: 'unbounded Sellers alignment (edit distance)' },
  { entry: 'metrics.anls', value: '50 MB string', outcome: 'hang', owner: 'rel-core', why: 'O(n·m) ANLS' },
  { entry: 'metrics.rougeL', value: '50 MB string', outcome: 'hang', owner: 'rel-core', why: 'O(n·m) LCS' },
  { entry: 'metrics.sentenceBleu', value: '50 MB string', outcome: 'hang', owner: 'rel-core', why: 'quadratic n-gram path' },
];

/** The expected-failure row matching a call's outcome, or undefined. */
export function knownFailure(entry, value, outcome) {
  return EXPECTED_FAILURES.find((r) => r.entry === entry && (r.value === '*' || r.value === value) && (r.outcome === '*' || r.outcome === outcome));
}
