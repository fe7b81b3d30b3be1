// Prompt templates (web/src/llm/prompts/*.js) rendered with fixed inputs and compared with the
// committed snapshots in tests/fixtures/prompts/<id>.v<version>.txt. A prompt change must change
// its version and its snapshot together. UPDATE_SNAPSHOTS=1 rewrites the snapshot files.
import test from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROMPT_IDS, definePrompt, formatClaims, formatPassages, loadPrompt, renderPrompt } from '../../../web/src/llm.js';
import { repoRoot } from '../helpers.mjs';

const snapDir = join(repoRoot, 'tests/fixtures/prompts');
const passages = formatPassages([{ id: 'doc-1#0', text: 'Acme Corp was founded in 1998 in Oslo.' }, { id: 'doc-2#4', text: 'Acme reported revenue of $4.1 billion in 2023.' }]);
const inputs = {
  answer_grounded: { question: 'When was Acme founded?', passages },
  metadata_extract: { document: 'ACME CORP\nFORM 10-Q\nFor the quarter ended March 31, 2023\n...', keys: 'company, date, form type, key figures, sections' },
  chunk_context: { document: 'ACME CORP ANNUAL REPORT 2023\n1. Business\n...\n7. Results\nRevenue rose 12%.', chunk: 'Revenue rose 12%.' },
  document_summary: { title: 'ACME CORP ANNUAL REPORT 2023', document: 'ACME CORP ANNUAL REPORT 2023\n1. Business\nAcme makes rotor blades in Oslo.\n7. Results\nRevenue rose 12%.' },
  query_rewrite: { question: 'and in 2023?', history: 'user: What was Acme revenue in 2022?\nassistant: $3.7 billion [1].' },
  judge_context_relevance: { question: 'When was Acme founded?', passage: 'Acme Corp was founded in 1998 in Oslo.', examples: '' },
  judge_groundedness: { context: passages, claims: formatClaims(['Acme was founded in 1998.', 'Acme has 7 plants.']) },
  judge_answer_relevance: { question: 'When was Acme founded?', answer: 'Acme was founded in 1998 [1].' },
  judge_answer_correctness: { question: 'When was Acme founded?', answer: 'In 1998 [1].', reference: 'Acme was founded in 1998.' },
  claim_split: { question: 'When was Acme founded and where?', answer: 'It was founded in 1998 [1]. It is based in Oslo [1].' },
  question_generate: { title: 'About Acme', passage: 'Acme Corp was founded in 1998 in Oslo.' },
  query_clarify: { question: 'When was it founded?', passages },
  query_expand: { question: 'Who do I call when I am off ill?' },
};

function show(messages) {
  return messages.map((m) => {
    const body = typeof m.content === 'string' ? m.content
      : m.content.map((p) => `${p.cache ? '<<part, cacheable>>\n' : '<<part>>\n'}${p.text}`).join('\n');
    return `### ${m.role}\n${body}\n`;
  }).join('\n');
}

for (const id of PROMPT_IDS) {
  test(`prompt ${id} renders to its committed snapshot`, async () => {
    const t = await loadPrompt(id);
    assert.equal(t.id, id);
    const rendered = show(renderPrompt(t, inputs[id]));
    const file = join(snapDir, `${id}.v${t.version}.txt`);
    if (process.env.UPDATE_SNAPSHOTS === '1') {
      mkdirSync(snapDir, { recursive: true });
      writeFileSync(file, rendered);
    }
    assert.ok(existsSync(file), `missing snapshot ${file} (run with UPDATE_SNAPSHOTS=1 after reviewing the prompt)`);
    assert.equal(rendered, readFileSync(file, 'utf8'));
    assert.doesNotMatch(rendered, /\{\{/, 'a variable was left unfilled');
  });
}

test('rendering rejects missing and unknown variables', async () => {
  const t = await loadPrompt('judge_answer_relevance');
  assert.throws(() => renderPrompt(t, { question: 'q' }), (e) => e.code === 'INVALID_ARGUMENT' && /variable 'answer'/.test(e.message));
  assert.throws(() => renderPrompt(t, { question: 'q', answer: 'a', extra: 'x' }), (e) => e.code === 'INVALID_ARGUMENT' && /unknown variable 'extra'/.test(e.message));
  // A value containing {{...}} is inserted verbatim, never expanded again.
  const m = renderPrompt(t, { question: '{{answer}}', answer: 'A' });
  assert.match(m[1].content, /Question: \{\{answer\}\}/);
});

test('prompt definitions are checked', async () => {
  assert.throws(() => definePrompt({ id: 'x', version: 1, variables: [], messages: [{ role: 'user', content: '{{q}}' }] }),
    (e) => e.code === 'PARSE_ERROR' && /\{\{q\}\}/.test(e.message));
  assert.throws(() => definePrompt({ id: 'x', version: 0, variables: [], messages: [{ role: 'user', content: 'hi' }] }), (e) => e.code === 'PARSE_ERROR');
  await assert.rejects(loadPrompt('nope'), (e) => e.code === 'INVALID_ARGUMENT');
  const custom = definePrompt({ id: 'mine', version: 2, variables: ['q'], messages: [{ role: 'user', content: 'Q: {{q}}' }] });
  assert.deepEqual(renderPrompt(custom, { q: 'x' }), [{ role: 'user', content: 'Q: x' }]);
});
