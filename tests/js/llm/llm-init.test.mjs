// ragwasm/llm functions that parse the reply in WASM (generateAnswer, the judges, extractMetadata,
// generateQuestions) fail with NOT_INITIALIZED before sending anything when init() was not called
// (they used to send the request, pay for it, and only then fail). A fresh Node process is needed:
// every other test file has called init().
import test from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { repoRoot } from '../helpers.mjs';
import { openaiJson, ProtocolTestDouble } from '../llm-protocol-double.mjs';

const script = (llmUrl, baseUrl) => `
import { createLlmClient, generateAnswer, judgeAnswerRelevance, judgeContextRelevance, extractMetadata, generateQuestions } from ${JSON.stringify(llmUrl)};
const client = createLlmClient({ provider: 'openai', baseUrl: ${JSON.stringify(baseUrl)}, model: 'm', maxRetries: 0 });
const calls = {
  generateAnswer: () => generateAnswer(client, { question: 'q?', passages: [{ id: 'p', text: 'x' }] }),
  judgeAnswerRelevance: () => judgeAnswerRelevance(client, { question: 'q?', answer: 'a' }),
  judgeContextRelevance: () => judgeContextRelevance(client, { question: 'q?', passage: 'p' }),
  extractMetadata: () => extractMetadata(client, 'a document'),
  generateQuestions: () => generateQuestions(client, [{ id: 'c', docId: 'd', text: 'a chunk of text' }]),
};
const out = {};
for (const [name, f] of Object.entries(calls)) {
  try { await f(); out[name] = 'resolved'; } catch (e) { out[name] = e.code + ': ' + e.message; }
}
out.complete = (await client.complete({ messages: [{ role: 'user', content: 'hi' }] })).text;  // needs no WASM
console.log(JSON.stringify(out));
`;

test('LLM helpers that parse in WASM fail with NOT_INITIALIZED before sending when init() was not called', async () => {
  const double = await ProtocolTestDouble.start();
  const dir = mkdtempSync(join(tmpdir(), 'ragwasm-llm-init-'));
  try {
    double.always(() => ({ json: openaiJson('fixed reply') }));
    const file = join(dir, 'no-init.mjs');
    writeFileSync(file, script(pathToFileURL(join(repoRoot, 'web/src/llm.js')).href, `${double.origin}/v1`));
    const stdout = await new Promise((done, fail) => execFile(process.execPath, [file], { encoding: 'utf8', timeout: 60_000 },
      (error, out, err) => (error ? fail(new Error(err)) : done(out))));
    const out = JSON.parse(stdout);
    for (const name of ['generateAnswer', 'judgeAnswerRelevance', 'judgeContextRelevance', 'extractMetadata', 'generateQuestions']) {
      assert.match(out[name], /^NOT_INITIALIZED: ragwasm: call `await init\(\)` first \(import \{ init \} from 'ragwasm'/, name);
    }
    // the only request that reached the server is the plain completion, which needs no WASM
    assert.equal(out.complete, 'fixed reply');
    assert.equal(double.requests.length, 1);
  } finally {
    await double.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
