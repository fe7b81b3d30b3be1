// Known failures owned by other branches of issue #19: ONE list. Each row names the entry point id,
// the hostile value's name ('*' = any), the failing outcome ('*' = any), the owner branch and why;
// the table prints matches as "known, owned by <branch>" and they do not fail the run. Delete a row
// as soon as its owner's fix is merged: the harness must then stay green without it.
//
// The quadratic answer metrics (rel-core) and the Collection lifecycle (api) already hold on this
// branch's base; every other failure the harness found was fixed here.
export const EXPECTED_FAILURES = [
  // metrics.evidenceContainment(excerpt, chunk) aligns without a cell limit (src/metrics/evidence.cpp,
  // containment_checked(..., limit = false)): 7 x 50 M cells took over 60 s in the debug build
  // (under 60 s in release). evaluateEvidence uses the 4e8-cell limit; the single-pair call does not.
  { entry: 'metrics.evidenceContainment', value: '50 MB string', outcome: 'hang', owner: 'rel-core', why: 'unbounded Sellers alignment in evidence_containment (debug build)' },
];

/** The expected-failure row matching a call's outcome, or undefined. */
export function knownFailure(entry, value, outcome) {
  return EXPECTED_FAILURES.find((r) => r.entry === entry && (r.value === '*' || r.value === value) && (r.outcome === '*' || r.outcome === outcome));
}
