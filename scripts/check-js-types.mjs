#!/usr/bin/env node
// npm test's checkJs step (#28 item 6): type-checks every web/src file (tests/js/tsconfig.checkjs.json, JSDoc against
// the hand-written .d.ts files), then checks each .d.ts against the JS beside it: every value the .d.ts exports
// must exist in the JS module with a type assignable to the declared one (a JS file imported by another
// is only ever seen through its .d.ts, so a .d.ts that drifted from its JS would otherwise go unnoticed).
// Usage: node scripts/check-js-types.mjs [--list]  (--list prints the pairs compared). Exit 1 on any error.
import { existsSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const configPath = join(root, 'tests/js/tsconfig.checkjs.json');
const config = ts.getParsedCommandLineOfConfigFile(configPath, {}, {
  ...ts.sys,
  onUnRecoverableConfigFileDiagnostic: (d) => { throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n')); },
});
if (config.errors.length) throw new Error(ts.formatDiagnostics(config.errors, formatHost()));

// web/src/x.js with web/src/x.d.ts beside it: the pairs to compare. Both files are roots of one program.
const pairs = config.fileNames.filter((f) => f.endsWith('.js')).map((js) => [js, js.replace(/\.js$/, '.d.ts')]).filter(([, d]) => existsSync(d));
const program = ts.createProgram({ rootNames: [...config.fileNames, ...pairs.map(([, d]) => d)], options: config.options });
const checker = program.getTypeChecker();

function formatHost() {
  return { getCanonicalFileName: (f) => f, getCurrentDirectory: () => root, getNewLine: () => '\n' };
}

const diagnostics = ts.getPreEmitDiagnostics(program);
if (diagnostics.length) process.stdout.write(ts.formatDiagnostics(diagnostics, formatHost()));

const isInternal = (s) => (s.declarations ?? []).some((d) => ts.getJSDocTags(d).some((t) => t.tagName.text === 'internal'));
const resolveAlias = (s) => (s.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(s) : s);
const assignable = (a, b) => checker.isTypeAssignableTo(a, b);
const show = (t) => { const x = checker.typeToString(t); return x.length > 160 ? `${x.slice(0, 160)}…` : x; };

// Where a JS value differs from its declaration, one level down: a function's parameters and return
// type, a class's static and instance members, an object's properties (isTypeAssignableTo says only no).
function why(got, want, depth = 0) {
  const out = [];
  const members = (g, w, what) => {
    for (const p of w.getProperties()) {
      const gp = g.getProperty(p.name);
      if (!gp) { if (!(p.flags & ts.SymbolFlags.Optional)) out.push(`${what}${p.name} missing`); continue; }
      const gt = checker.getTypeOfSymbol(gp);
      const wt = checker.getTypeOfSymbol(p);
      if (!assignable(gt, wt)) out.push(`${what}${p.name}: ${depth < 1 ? why(gt, wt, depth + 1).join(', ') || show(gt) : show(gt)} (declared ${show(wt)})`);
    }
  };
  const [gc, wc] = [got.getConstructSignatures(), want.getConstructSignatures()];
  const [gf, wf] = [got.getCallSignatures(), want.getCallSignatures()];
  if (wc.length && gc.length) {
    const sig = (x) => checker.signatureToString(x);
    const gMin = gc[0].minArgumentCount ?? 0;
    if (wc.every((w) => w.getParameters().length < gMin)) out.push(`constructor ${sig(gc[0])} (declared ${wc.map(sig).join(' | ')})`);
    members(checker.getReturnTypeOfSignature(gc[0]), checker.getReturnTypeOfSignature(wc[0]), 'instance .');
    members(got, want, 'static .');
  } else if (wf.length && gf.length) {
    const g = gf[0];
    for (const w of wf) {  // overloads: the JS implementation must accept each declared form
      const gr = checker.getReturnTypeOfSignature(g);
      const wr = checker.getReturnTypeOfSignature(w);
      if (!assignable(gr, wr)) out.push(`returns ${show(gr)} (declared ${show(wr)})`);
      w.getParameters().forEach((wp, i) => {
        const gp = g.getParameters()[i];
        if (!gp) return;
        const wt = checker.getTypeOfSymbol(wp);
        const gt = checker.getTypeOfSymbol(gp);
        if (!assignable(wt, gt) && !assignable(gt, wt)) out.push(`parameter ${wp.name}: ${show(gt)} (declared ${show(wt)})`);
      });
    }
  } else if (!wf.length && !wc.length) {
    members(got, want, '.');
  }
  return [...new Set(out)].slice(0, 6);
}

// Known differences, each with why it is left: the JSDoc of these values is looser than their
// declaration (inline object types, Function), so the JS cannot be shown to match yet. Tighten the JSDoc
// (or the .d.ts) and remove the entry; an entry that no longer differs fails the check, so the list
// only shrinks.
const KNOWN = new Map([
  ['web/src/llm.d.ts judgeAnswerCorrectness', 'returns an inline object literal (scale.kind: string, rule: any), not JudgeResult & {rule}'],
  ['web/src/llm.d.ts judgeGroundedness', 'returns an inline object literal, not GroundednessResult'],
  ['web/src/llm.d.ts JUDGES', 'holds judgeAnswerCorrectness and judgeGroundedness (above)'],
  ['web/src/llm.d.ts llmChunkContexts', 'JSDoc @returns {Function}; the declaration spells out the memoized step and its stats'],
  ['web/src/answer/extractive.d.ts answerUnitFeatures', 'returns inline objects (kind: string), not AnswerUnitFeatures'],
  ['web/src/core/errors.d.ts RagwasmError', "lib.d.ts types Error's name as string; the declaration narrows it to 'RagwasmError', which the JS sets"],
  ['web/src/embed/contract.d.ts asEmbedder', 'JSDoc types embed/embedSync as Function, the declaration as the embedder contract'],
  ['web/src/embed/contract.d.ts embedTexts', 'takes asEmbedder\'s result (above)'],
  ['web/src/embed/onnx-embedder.d.ts createOnnxEmbedder', 'one JS function (options, more) behind two declared overloads (options) | (name, options)'],
  ['web/src/goldens/judge-grid.d.ts judgeGrid', 'returns inline objects (examples: any[]), not the declared result'],
  ['web/src/goldens/questions.d.ts sampleChunks', 'declared generic over the chunk type; the JSDoc is not (@template missing)'],
  ['web/src/pipeline/autotune.d.ts DEFAULT_AUTOTUNE_GRID', 'a frozen literal whose fusion entries infer mode: string, not AutotuneFusion'],
  ['web/src/pipeline/collection.d.ts memoizeContextSteps', 'JSDoc types the steps as Function, the declaration as CollectionLlm'],
  ['web/src/pipeline/collection.d.ts Collection', 'one JS class for both: toBytes() returns a Promise on a ParallelCollection (declared apart, as ParallelCollection)'],
]);
const mismatches = [];
const known = new Set();
for (const [js, dts] of pairs) {
  const jsModule = checker.getSymbolAtLocation(program.getSourceFile(js));
  const dtsModule = checker.getSymbolAtLocation(program.getSourceFile(dts));
  const name = relative(root, dts);
  if (!jsModule || !dtsModule) { mismatches.push(`${name}: not a module`); continue; }
  const jsExports = new Map(checker.getExportsOfModule(jsModule).map((s) => [s.name, resolveAlias(s)]));
  let compared = 0;
  for (const exported of checker.getExportsOfModule(dtsModule)) {
    const declared = resolveAlias(exported);
    if (!(declared.flags & ts.SymbolFlags.Value)) continue;  // an interface or type alias: nothing to compare in JS
    const actual = jsExports.get(exported.name);
    // An entry .d.ts re-exports its area's `export *`, @internal library names included; the entry JS
    // names its exports one by one and leaves those out (package.test.mjs keeps them out of the contract).
    if (!actual && isInternal(declared)) continue;
    if (!actual || !(actual.flags & ts.SymbolFlags.Value)) {
      mismatches.push(`${name}: declares '${exported.name}', which ${relative(root, js)} does not export`);
      continue;
    }
    const want = checker.getTypeOfSymbol(declared);
    const got = checker.getTypeOfSymbol(actual);
    compared++;
    if (!checker.isTypeAssignableTo(got, want)) {
      if (KNOWN.has(`${name} ${exported.name}`)) { known.add(`${name} ${exported.name}`); continue; }
      mismatches.push(`${name}: '${exported.name}' in ${relative(root, js)} does not match its declaration: ${why(got, want).join('; ') || checker.typeToString(got)}`);
    }
  }
  if (process.argv.includes('--list')) process.stdout.write(`${relative(root, js)} ~ ${name}: ${compared} values\n`);
}
for (const k of KNOWN.keys()) if (!known.has(k)) mismatches.push(`${k.replace(' ', ": '")}' now matches its declaration: remove it from KNOWN in scripts/check-js-types.mjs`);
for (const m of mismatches) process.stdout.write(`dts-match: ${m}\n`);
const files = config.fileNames.filter((f) => f.endsWith('.js')).length;
process.stdout.write(`check-js-types: ${files} JS files checked, ${diagnostics.length} type errors; ${pairs.length} .d.ts compared with their JS, ${mismatches.length} mismatches (${known.size} known, listed in KNOWN)\n`);
process.exit(diagnostics.length || mismatches.length ? 1 : 0);
