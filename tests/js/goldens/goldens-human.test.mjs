// Human labels for pooled candidates (issue #31 item 2): the pool file `ragwasm label --pool-only`
// writes, its parser, and the qrels / judge labels made from a person's grades.
import test from 'node:test';
import assert from 'node:assert/strict';
import { init } from '../../../web/src/index.js';
import { parseLabels } from '../../../web/src/llm.js';
import { formatPool, gradedLabels, gradedQrels, pairKey, parsePool, poolLabels } from '../../../web/src/eval.js';

const POOL = formatPool({
  questions: [{ id: 'q1', text: 'PTO days?' }, { id: 'q2', text: 'Travel?' }, { id: 'q3', text: 'not pooled' }],
  pool: {
    q1: [{ id: 'a#0', docId: 'a', text: 'A0', bestRank: 1, runs: ['bm25'] }, { id: 'a#1', docId: 'a', text: 'A1' }, { id: 'b#0', docId: 'b', text: 'B0' }],
    q2: [{ id: 'c#0', docId: 'c', text: 'C0' }],
  },
});

test('formatPool / parsePool round trip, in order', async () => {
  await init();
  const pool = parsePool(POOL);
  assert.deepEqual(pool.map((p) => `${p.questionId}/${p.chunkId}/${p.docId}`), ['q1/a#0/a', 'q1/a#1/a', 'q1/b#0/b', 'q2/c#0/c']);
  assert.equal(pool[0].question, 'PTO days?');
  assert.equal(JSON.parse(POOL.split('\n')[0]).runs[0], 'bm25');
  assert.throws(() => parsePool('{"questionId":"q1"'), { code: 'PARSE_ERROR', message: /pool line 1: not JSON/ });
  assert.throws(() => parsePool('\n{"questionId":"q 1","question":"x","chunkId":"c","docId":"d","text":""}'), { code: 'PARSE_ERROR', message: /line 2: questionId/ });
  const line = '{"questionId":"q1","question":"x","chunkId":"c","docId":"d","text":""}';
  assert.throws(() => parsePool(`${line}\n${line}\n`), { code: 'PARSE_ERROR', message: /line 2: .*also on line 1/ });
  assert.throws(() => parsePool('\n\n'), { code: 'PARSE_ERROR', message: /no \(question, passage\) pairs/ });
});

test('gradedQrels: document level takes the best chunk grade, chunk level every graded pair; ungraded left out', () => {
  const pool = parsePool(POOL);
  const grades = { [pairKey('q1', 'a#0')]: 1, [pairKey('q1', 'a#1')]: 3, [pairKey('q1', 'b#0')]: 0 };
  assert.equal(gradedQrels(pool, grades), 'q1 0 a 3\nq1 0 b 0\n');
  assert.equal(gradedQrels(pool, grades, { level: 'chunk' }), 'q1 0 a#0 1\nq1 0 a#1 3\nq1 0 b#0 0\n');
  assert.equal(gradedQrels(pool, {}), '');
  assert.throws(() => gradedQrels(pool, { [pairKey('q1', 'a#0')]: 4 }), { code: 'INVALID_ARGUMENT' });
  assert.throws(() => gradedQrels(pool, { [pairKey('q9', 'a#0')]: 1 }), { code: 'INVALID_ARGUMENT', message: /pair of the pool/ });
});

test('gradedLabels and poolLabels feed the context-relevance judge', () => {
  const pool = parsePool(POOL);
  const grades = { [pairKey('q1', 'a#1')]: 2, [pairKey('q2', 'c#0')]: 0 };
  const items = parseLabels(gradedLabels(pool, grades), 'context_relevance');
  assert.deepEqual(items.map((i) => [i.question, i.passage, i.label]), [['PTO days?', 'A1', 2], ['Travel?', 'C0', 0]]);
  const fromQrels = poolLabels(pool, new Map([['q1', new Map([['a#1', 2]])], ['q2', new Map([['c#0', 0]])]]));
  assert.deepEqual(fromQrels.map((i) => [i.id, i.passage, i.label]), [['q1/a#1', 'A1', 2], ['q2/c#0', 'C0', 0]]);
  // Document-level qrels name no pooled chunk: a clear error, not an empty label set.
  assert.throws(() => poolLabels(pool, { q1: { a: 3 } }), { code: 'INVALID_ARGUMENT', message: /chunk-level/ });
});
