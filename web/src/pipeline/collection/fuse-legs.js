// @ts-check
// How a Collection's search combines its legs' lists: fusion with the leg check's benching, or one
// retriever's own ranking (docs/collection.md, docs/fusion.md "Leg check").
import { fuse } from '../../retrieve/fusion.js';
import { weightsAfterLegCheck } from '../../retrieve/leg-check.js';

/**
 * Fuses two or more legs' lists with the config's fusion `f` (retrieval.fusion); a leg the leg check
 * (`legReport`, or null) benches takes no part in fusion, its own hits follow in its ranking.
 * @returns {{hits: object[], diagnostics: object, legReport: object|null}}
 */
export function fuseLegs(lists, f, retrievers, legReport) {
  const weights = weightsAfterLegCheck(f.weights, retrievers, legReport);
  const benched = retrievers.filter((r, i) => weights[i] === 0 && f.weights[i] !== 0);
  /** @type {any} the fuse() result, with legReport added below */
  let fused;
  if (benched.length === 0) {
    fused = fuse(lists, { mode: f.mode, normalization: f.normalization, weights, rrfK: f.rrfK });
  } else {
    // Benched legs take no part in fusion (in any mode); their own hits follow, in their ranking.
    const keep = lists.map((l, i) => i).filter((i) => !benched.includes(lists[i].retriever));
    fused = fuse(keep.map((i) => lists[i]), { mode: f.mode, normalization: f.normalization, weights: keep.map((i) => weights[i]), rrfK: f.rrfK });
    fused.diagnostics.warnings.unshift(legReport.warning);
    const seen = new Set(fused.hits.map((h) => h.id));
    for (const l of lists.filter((x) => benched.includes(x.retriever))) {
      l.hits.forEach((h, r) => {
        if (seen.has(h.id)) return;
        seen.add(h.id);
        fused.hits.push({ id: h.id, score: 0, contributions: [{ retriever: l.retriever, present: true, rank: r + 1, raw: h.score, normalized: 0, weight: 0, contribution: 0 }] });
      });
    }
  }
  fused.legReport = legReport;
  return fused;
}

// One retriever: its own ranking and raw scores, no fusion (docs/collection.md).
export function single(list) {
  const hits = list.hits.map((h, r) => ({ id: h.id, score: h.score,
    contributions: [{ retriever: list.retriever, present: true, rank: r + 1, raw: h.score, normalized: h.score, weight: 1, contribution: h.score }] }));
  return { hits, diagnostics: { mode: 'single', retriever: list.retriever, warnings: [] }, legReport: null };
}

