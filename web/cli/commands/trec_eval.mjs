// ragwasm trec_eval QRELS RUN: trec_eval 10.0-compatible evaluation and output (same measure names,
// same "%-22s\t%s\t%6.4f" lines), computed by src/metrics through the WASM module.
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { metrics } from '../../src/eval.js';

export default {
  name: 'trec_eval',
  summary: 'evaluate a TREC run against qrels exactly as trec_eval 10.0 (prints trec_eval\'s format)',
  usage: 'trec_eval [-q] [-c] [-l N] [-m MEASURE]... QRELS RUN',
  description: 'Measures: num_ret num_rel num_rel_ret map Rprec bpref recip_rank P recall ndcg ndcg_cut map_cut '
    + 'success (trec_eval names; cutoffs as -m P.5,10 or -m ndcg_cut.10) and ndcg_exp / ndcg_exp_cut '
    + '(exponential gain, not in trec_eval). Default: -m all_trec (every measure above, trec_eval cutoffs). '
    + 'QRELS: TREC "qid iter docno rel" or BEIR tsv; RUN: TREC 6 columns or JSONL. Ties are ordered as '
    + 'trec_eval does (score descending, then docno descending); the rank column is ignored.',
  options: {
    query: { type: 'boolean', short: 'q', help: '-q: also print every query (trec_eval -q)' },
    complete: { type: 'boolean', short: 'c', help: '-c: judged queries missing from the run count as 0 (else an error, as trec_eval 10.0)' },
    level: { type: 'string', short: 'l', help: '-l N: relevant when the judgment is >= N', default: '1' },
    measure: { type: 'string', short: 'm', multiple: true, help: '-m MEASURE: measure or set (repeatable), e.g. map, P.10, ndcg_cut.10, all_trec' },
  },
  async run(values, positionals, io) {
    if (positionals.length !== 2) {
      io.stderr.write('ragwasm trec_eval: expected QRELS and RUN (see --help)\n');
      return 2;
    }
    const level = Number(values.level);
    if (!Number.isInteger(level)) {
      io.stderr.write(`ragwasm trec_eval: -l: expected an integer, got '${values.level}'\n`);
      return 2;
    }
    const [qrelsPath, runPath] = positionals;
    const qrels = metrics.Qrels.parse(readFileSync(qrelsPath, 'utf8'), { name: basename(qrelsPath) });
    try {
      const run = metrics.Run.parse(readFileSync(runPath, 'utf8'), { name: basename(runPath) });
      try {
        const measures = (values.measure ?? []).flatMap((m) => (m.includes('.') ? [m] : m.split(',')));
        io.stdout.write(metrics.formatTrecEval(qrels, run, {
          measures, relevanceLevel: level, completeQueries: !!values.complete, perQuery: !!values.query,
        }));
      } finally {
        run.dispose();
      }
    } finally {
      qrels.dispose();
    }
    return 0;
  },
};
