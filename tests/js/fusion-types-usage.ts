// Typed usage of the fusion, context and pipeline APIs: `npx tsc --noEmit --strict --module NodeNext
// --moduleResolution NodeNext --target ES2022 tests/js/fusion-types-usage.ts` checks the .d.ts files.
import {
  fuse, mmr, expandNeighbours, aggregateToDocuments, rerank, retrieveAndRerank, assembleContext, estimateContextTokens,
  parsePipelineConfig, defaultPipelineConfig, FUSION_MODES
} from '../../web/src/index.js';
import {
  tuneFusion, defaultFusionGrid, checkLegs, pickProbes, weightsAfterLegCheck, LEG_CHECK_DEFAULTS
} from '../../web/src/eval.js';
import type { FuseResult, FusedHit, AssembledContext, PipelineConfig, RankedList } from '../../web/src/index.js';
import type { TuneResult, LegCheckReport } from '../../web/src/eval.js';

export async function fusionUsage(): Promise<number> {
  const lists: RankedList[] = [{ retriever: 'bm25', hits: [{ id: 'a', score: 1 }] }, { retriever: 'dense', hits: [{ id: 'a', score: 0.5 }] }];
  const r: FuseResult = fuse(lists, { mode: 'rrf', weights: [1, 2], rrfK: 60, k: 10 });
  const first: FusedHit = r.hits[0];
  const warn: string[] = r.diagnostics.warnings;
  const t: TuneResult = tuneFusion([{ queryId: 'q', lists }], { q: { a: 1 } }, { cutoff: 10, metric: (ids, fused) => fused.length / ids.length });
  const grid = defaultFusionGrid(2);
  const m = mmr([{ id: 'a', score: 1 }], { lambda: 0.5, k: 1, vectors: [new Float32Array([1, 0])] });
  const p = expandNeighbours([{ id: 'a', score: 1 }], [{ id: 'a', docId: 'd', ordinal: 0 }], { before: 1, after: 1 });
  const d = aggregateToDocuments([{ id: 'a', docId: 'd', score: 1 }], { method: 'topm', m: 2 });
  const rr = await rerank('q', [{ id: 'a', text: 'x' }], async (_q, items) => items.map(() => 1), { keep: 1 });
  const rr2 = await retrieveAndRerank('q', async () => [{ id: 'a' }], () => [1], { candidates: 5, keep: 1 });
  const ctx: AssembledContext = assembleContext([{ chunkId: 'c', text: 'x', score: 1 }], { tokenBudget: 100, order: 'ends', docContext: { c: 'title' } });
  const n: number = estimateContextTokens('abc');
  const cfg: PipelineConfig = parsePipelineConfig({ retrieval: { k: 5 } });
  const def: PipelineConfig = defaultPipelineConfig();
  return first.score + warn.length + t.bestObjective + grid.length + m.length + p.length + d.length + rr[0].rerankScore +
    rr2.length + ctx.tokensUsed + ctx.sources[0].n + n + cfg.retrieval.k + def.assembly.tokenBudget + FUSION_MODES.length +
    cfg.retrieval.fusion.rrfK + (cfg.indexes.dense?.hnsw.M ?? 0) + (cfg.indexes.bm25?.fields[0].boost ?? 0);
}

import { Collection } from '../../web/src/index.js';
export async function collectionUsage(): Promise<number> {
  const col = await Collection.create({ indexes: { bm25: {} } });
  await col.add([{ id: 'd', text: 'x' }], { onProgress: ({ done, total }: { done: number; total: number }) => void (done + total) });
  const hits = await col.search('x', { k: 3, explain: true });
  const bytes: Uint8Array = col.toBytes();
  col.dispose();
  return hits.length + bytes.length + col.size;
}

// Leg check: label-free, on the caller's own legs and passages.
async function legCheckUsage(): Promise<number[]> {
  const passages = [{ id: 'a', text: 'Paris is the capital of France and its largest city.' }];
  const report: LegCheckReport = await checkLegs([
    { retriever: 'bm25', search: (qs: string[], k: number) => qs.map(() => ['a'].slice(0, k)) },
    { retriever: 'dense', search: async (qs: string[]) => qs.map(() => [] as string[]) },
  ], passages, { sample: 50, ratio: LEG_CHECK_DEFAULTS.ratio });
  const probes: { id: string; query: string }[] = pickProbes(passages);
  const mrr: number = report.legs[0].mrr + probes.length;
  const warning: string | null = report.warning;
  void mrr; void warning;
  const col = await Collection.create({});
  const again: LegCheckReport = await col.checkLegs();
  const last: LegCheckReport | null = col.legReport;
  void again; void last;
  return weightsAfterLegCheck([0.7, 0.3], ['bm25', 'dense'], report);
}
void legCheckUsage;
