// A ~100k-passage corpus for the `pipeline` bench, built from ../shared/data: SciFact abstracts,
// CISI and Cranfield documents, SQuAD v1.1 dev paragraphs, the 12 SEC filings (plain text) and the
// Markdown docs (rust-book, simdjson; code blocks dropped).
// Every source document is cut into passages of whole sentences packed up to `maxChars` characters
// (default 200, which gives ~100k passages from ~15 MB of text); passages are interleaved
// round-robin across sources so a prefix (ctx.quick) keeps the mix. Queries: SciFact test queries,
// CISI queries and SQuAD questions, interleaved. Missing sources are skipped and named.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadBeir, loadCisi } from '../../../web/cli/datasets.mjs';

function sentences(text) {
  return text.replace(/\s+/g, ' ').trim().split(/(?<=[.!?;:])\s+(?=[A-Z0-9"“(])/u).filter(Boolean);
}

/** Packs sentences into passages of at most ~maxChars (a longer sentence is cut at spaces). */
export function passages(text, maxChars) {
  const out = [];
  let cur = '';
  const push = () => { if (cur.trim()) out.push(cur.trim()); cur = ''; };
  for (let s of sentences(text)) {
    while (s.length > maxChars) {
      let cut = s.lastIndexOf(' ', maxChars);
      if (cut < maxChars / 2) cut = maxChars;
      push();
      out.push(s.slice(0, cut).trim());
      s = s.slice(cut).trim();
    }
    if (cur.length + 1 + s.length > maxChars) push();
    cur = cur ? `${cur} ${s}` : s;
  }
  push();
  return out;
}

/**
 * @param {(rel: string) => string|null} shared ctx.shared
 * @param {{maxChars?: number, limit?: number}} [opts] limit: keep the first `limit` passages (round-robin order)
 * @returns {{docs: {id: string, text: string}[], queries: {id: string, text: string}[], sources: object, skipped: string[], chars: number}}
 */
export function buildBigCorpus(shared, { maxChars = 200, limit = Infinity } = {}) {
  const perSource = {};
  const queries = {};
  const skipped = [];
  const add = (src, docs) => {
    perSource[src] = [];
    for (const d of docs) passages(d.text, maxChars).forEach((p, i) => perSource[src].push({ id: `${src}:${d.id}:${i}`, text: p }));
  };
  const scifact = shared('data/scifact/corpus.jsonl') && shared('data/scifact');
  if (scifact) {
    const b = loadBeir(scifact);
    add('scifact', b.corpus.map((d) => ({ id: d.id, text: `${d.title}. ${d.text}` })));
    queries.scifact = b.queries;
  } else skipped.push('scifact (../shared/data/scifact missing)');
  const cisi = shared('data/cisi/CISI.ALL') && shared('data/cisi');
  if (cisi) {
    const c = loadCisi(cisi);
    add('cisi', c.corpus.map((d) => ({ id: d.id, text: `${d.title}. ${d.text}` })));
    queries.cisi = c.queries;
  } else skipped.push('cisi (../shared/data/cisi missing)');
  const cran = shared('data/cranfield/beir/corpus.jsonl') && shared('data/cranfield/beir');
  if (cran) add('cranfield', loadBeir(cran).corpus.map((d) => ({ id: d.id, text: `${d.title}. ${d.text}` })));
  else skipped.push('cranfield (../shared/data/cranfield/beir missing)');
  const squad = shared('data/squad-v1.1/dev-v1.1.json');
  if (squad) {
    const j = JSON.parse(readFileSync(squad, 'utf8'));
    const paras = [];
    const qs = [];
    j.data.forEach((a, ai) => a.paragraphs.forEach((p, pi) => {
      paras.push({ id: `${ai}-${pi}`, text: p.context });
      if (p.qas[0]) qs.push({ id: p.qas[0].id, text: p.qas[0].question });
    }));
    add('squad', paras);
    queries.squad = qs;
  } else skipped.push('squad (../shared/data/squad-v1.1/dev-v1.1.json missing)');
  const sec = shared('data/sec-filings/text');
  if (sec) {
    const files = readdirSync(sec).filter((f) => f.endsWith('.txt')).sort();
    add('sec', files.map((f) => ({ id: f.replace(/\.txt$/, ''), text: readFileSync(join(sec, f), 'utf8').split('\n\n').join(' ') })));
  } else skipped.push('sec (../shared/data/sec-filings/text missing)');
  const md = shared('data/markdown-docs');
  if (md) {
    const files = [];
    const walk = (dir) => {
      for (const e of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
        if (e.isDirectory()) walk(join(dir, e.name));
        else if (e.name.endsWith('.md')) files.push(join(dir, e.name));
      }
    };
    walk(md);
    add('markdown', files.map((f) => ({ id: f.slice(md.length + 1), text: readFileSync(f, 'utf8').replace(/```[\s\S]*?```/g, ' ').replace(/[#*`>|]+/g, ' ') })));
  } else skipped.push('markdown (../shared/data/markdown-docs missing)');

  // Round-robin interleave, sources in a fixed order.
  const names = Object.keys(perSource);
  const docs = [];
  const at = Object.fromEntries(names.map((n) => [n, 0]));
  while (docs.length < limit) {
    let any = false;
    for (const n of names) {
      if (at[n] < perSource[n].length && docs.length < limit) { docs.push(perSource[n][at[n]++]); any = true; }
    }
    if (!any) break;
  }
  const sources = Object.fromEntries(names.map((n) => [n, at[n]]));
  const qNames = Object.keys(queries);
  const qs = [];
  for (let i = 0; qNames.some((n) => i < queries[n].length); i++) {
    for (const n of qNames) if (i < queries[n].length) qs.push({ id: `${n}:${queries[n][i].id}`, text: queries[n][i].text });
  }
  return { docs, queries: qs, sources, skipped, chars: docs.reduce((s, d) => s + d.text.length, 0) };
}

