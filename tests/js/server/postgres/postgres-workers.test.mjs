// exportToPostgres / checkExport of a collection sharded across Workers (#28: found by tsc --checkJs): its
// BM25 index is a ShardedBm25Index, which has no impacts() to export. Refused with INVALID_ARGUMENT before a
// statement is written (it used to fail half-way with a TypeError). No database: sqlFileClient records SQL.
import test from 'node:test';
import assert from 'node:assert/strict';
import { Collection, RagwasmError, init } from '../../../../web/src/index.js';
import { checkExport, exportToPostgres, sqlFileClient } from '../../../../web/src/postgres.js';

await init();

test('#28 exporting a workers: 2 collection is INVALID_ARGUMENT with nothing written, and workers: 1 still exports', async () => {
  const docs = [{ id: 'd1', text: 'the probation period lasts six months' }, { id: 'd2', text: 'holidays are booked in the portal' }];
  const sharded = await Collection.create({ indexes: { bm25: {} } }, { workers: 2 });
  try {
    await sharded.add(docs);
    const written = [];
    const refused = (e) => e instanceof RagwasmError && e.code === 'INVALID_ARGUMENT' && /workers: 1/.test(e.message);
    await assert.rejects(exportToPostgres(sharded, sqlFileClient((s) => written.push(s))), refused);
    assert.deepEqual(written, []);
    await assert.rejects(checkExport(sharded, sqlFileClient(() => {})), refused);
  } finally {
    sharded.dispose();
  }
  const single = await Collection.create({ indexes: { bm25: {} } });
  try {
    await single.add(docs);
    const written = [];
    const r = await exportToPostgres(single, sqlFileClient((s) => written.push(s)));
    assert.equal(r.documents, 2);
    assert.ok(written.length > 0);
  } finally {
    single.dispose();
  }
});
