// The doc chat demo with a pipeline config asking for LLM query expansion (retrieval.llmExpansion, issue
// #27): the same ask() as the library and `ragwasm ask`, against a scripted OpenAI-protocol server on
// 127.0.0.1. The server is a protocol test double, not a model: its passage and answer are fixed strings,
// so this checks plumbing (the expansion request carries the question; then the streamed answer), never a
// model's quality.
import test from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { withPage } from './harness.mjs';
import { openaiSse } from '../js/llm-protocol-double.mjs';

const QUESTION = 'How many days of paid time off do full-time U.S. employees get per year?';
const PASSAGE = '[test double passage] Full-time employees receive paid time off days each calendar year.';
const ANSWER = '[test double answer] 22 days [1].';

async function scriptedLlm() {
  const seen = [];
  const server = createServer(async (req, res) => {
    const cors = { 'access-control-allow-origin': '*', 'access-control-allow-headers': 'authorization, content-type, accept', 'access-control-allow-methods': 'POST, OPTIONS' };
    if (req.method === 'OPTIONS') { res.writeHead(204, cors).end(); return; }
    const chunks = [];
    for await (const c of req) chunks.push(c);
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    seen.push(body);
    if (!body.stream) {  // the expansion (query_expand prompt) is not streamed
      res.writeHead(200, { ...cors, 'content-type': 'application/json' });
      res.end(JSON.stringify({ id: 'x', object: 'chat.completion', model: 'double-model', choices: [{ index: 0, message: { role: 'assistant', content: PASSAGE }, finish_reason: 'stop' }], usage: { prompt_tokens: 5, completion_tokens: 9, total_tokens: 14 } }));
      return;
    }
    res.writeHead(200, { ...cors, 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    for (const ev of openaiSse(ANSWER.match(/.{1,12}/gs))) res.write(`${ev}\n\n`);
    res.end();
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return { origin: `http://127.0.0.1:${server.address().port}`, seen, close: () => new Promise((r) => { server.closeAllConnections(); server.close(r); }) };
}

test('doc chat: a config with retrieval.llmExpansion asks the LLM for a passage with the question, then streams the answer', { timeout: 120_000 }, async () => {
  const llm = await scriptedLlm();
  try {
    await withPage(async ({ page, url, consoleErrors }) => {
      await page.route(`${url}configs/expand.json`, (route) => route.fulfill({ status: 200, contentType: 'application/json',
        body: JSON.stringify({ chunker: { context: { template: '{title}', separator: '\n' } }, indexes: { bm25: {} }, retrieval: { k: 10, llmExpansion: { mode: 'query2doc', maxTokens: 96 } } }) }));
      await page.goto(`${url}web/demo/chat.html?config=/configs/expand.json`);
      await page.waitForFunction(() => /^using expand\.json|not used/.test(document.getElementById('config-status').textContent), null, { timeout: 60000 });
      assert.match(await page.textContent('#config-status'), /^using expand\.json/);
      await page.click('#sample');
      await page.waitForFunction(() => /^ready: 26 documents/.test(document.getElementById('status').textContent) || document.getElementById('status').classList.contains('err'), null, { timeout: 45000 });
      // Without an endpoint the config's LLM step cannot run: a clear error, no answer.
      await page.fill('#question', QUESTION);
      await page.click('#ask-btn');
      await page.waitForFunction(() => ['answered', 'failed'].includes(document.getElementById('status').dataset.state) || document.getElementById('status').classList.contains('err'), null, { timeout: 45000 });
      assert.match(await page.textContent('#status'), /retrieval\.llmExpansion/);
      assert.equal(llm.seen.length, 0);

      await page.click('#settings summary');
      await page.selectOption('#provider', 'openai');
      await page.fill('#endpoint', `${llm.origin}/v1`);
      await page.fill('#model', 'double-model');
      await page.fill('#question', QUESTION);
      await page.click('#ask-btn');
      await page.waitForFunction(() => document.getElementById('status').dataset.state === 'answered' || document.getElementById('status').classList.contains('err'), null, { timeout: 45000 });
      assert.equal(await page.textContent('#answer'), ANSWER);
      assert.equal(llm.seen.length, 2);
      const [expand, answer] = llm.seen;
      assert.equal(expand.stream, undefined);
      assert.equal(expand.max_tokens, 96);
      assert.ok(JSON.stringify(expand.messages).includes(QUESTION), 'the expansion request carries the question');
      assert.equal(answer.stream, true);
      assert.ok(JSON.stringify(answer.messages).includes(QUESTION));
      assert.ok(!JSON.stringify(answer.messages).includes('[test double passage]'), 'the passage is a search query, not a shown passage');
      assert.deepEqual(consoleErrors, []);
    });
  } finally {
    await llm.close();
  }
});
