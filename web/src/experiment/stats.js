// @ts-check
// Multiple-testing correction for the paired tests of one experiment report (issue 32).

/**
 * Holm's step-down adjusted p-values (Holm 1979, "A simple sequentially rejective multiple test
 * procedure"): sort the m raw p-values ascending, p(1) <= ... <= p(m); the adjusted value of the i-th
 * smallest is max over j <= i of min(1, (m - j + 1) * p(j)), so adjusted values keep the order of the
 * raw ones. Rejecting where the adjusted p < alpha controls the family-wise error rate at alpha.
 * Ties keep input order (a stable sort); null stays null and is not counted in m.
 * @example
 * holmAdjust([0.01, 0.04, 0.03])  // [0.03, 0.06, 0.06]: 3 x 0.01, max(0.03, 2 x 0.03), max(0.06, 1 x 0.04)
 * @param {Array<number|null>} pValues raw p-values in [0, 1]
 * @returns {Array<number|null>} adjusted p-values, in input order
 */
export function holmAdjust(pValues) {
  const idx = pValues.map((p, i) => [p, i]).filter(([p]) => typeof p === 'number' && Number.isFinite(p));
  idx.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const m = idx.length;
  const out = pValues.map(() => null);
  let running = 0;
  idx.forEach(([p, i], j) => {
    running = Math.max(running, Math.min(1, (m - j) * p));
    out[i] = running;
  });
  return out;
}
