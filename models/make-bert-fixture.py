#!/usr/bin/python3
"""Generates a BERT-architecture ONNX model with small seeded random weights (by default 2 layers, hidden 32,
2 heads, intermediate 128, the real 30,522-token bert-base-uncased vocabulary) plus the files
transformers.js expects, into OUT_DIR/<name>/:

  config.json, tokenizer.json, tokenizer_config.json, onnx/model.onnx

The graph follows Hugging Face BertModel: word + position + token-type embeddings, LayerNorm,
per layer multi-head self-attention with the additive mask (1 - mask) * -10000, residual + LayerNorm,
GELU (erf) feed-forward, residual + LayerNorm; output last_hidden_state [batch, tokens, hidden].
Used by tests/js/embed/embed-onnx-bert.test.mjs to prove our ONNX embedder matches transformers.js.

--head classifier writes a cross-encoder instead (Hugging Face BertForSequenceClassification with
num_labels 1): the same encoder, then the pooler (dense + tanh on the [CLS] row) and a 1-logit
classifier; output logits [batch, 1]; config.json architectures BertForSequenceClassification. It also
writes OUT_DIR/bad-logits.onnx (a 'logits' output of shape [batch, tokens]) and
OUT_DIR/two-logits.onnx (a declared [batch, 2] 'logits'). Used by
tests/js/retrieve/rerank-onnx.test.mjs to prove createCrossEncoderReranker matches transformers.js.

--layers/--hidden/--heads/--intermediate change the shape and --init fan-in scales the weights by
1/sqrt(fan-in): the `onnx` benchmark (tests/bench/suites/onnx.mjs) writes a MiniLM-L6-shaped model
(6 layers, hidden 384, 12 heads, intermediate 1536) into models/build/ (gitignored) with
--quantize, which also writes onnx/model_quantized.onnx (dynamic int8 MatMuls, what transformers.js
loads for dtype 'q8').

Run with Debian's python3-onnx + numpy:
  /usr/bin/python3 models/make-bert-fixture.py OUT_DIR TOKENIZER_JSON [--name tiny-bert] [--seed 1234] [--head none|classifier]
      [--layers 2] [--hidden 32] [--heads 2] [--intermediate 128] [--init fixed|fan-in] [--model-max-length 512] [--quantize]
"""
import argparse
import json
import os
import shutil

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

p = argparse.ArgumentParser()
p.add_argument("out_dir")
p.add_argument("tokenizer_json")
p.add_argument("--name", default="tiny-bert")
p.add_argument("--seed", type=int, default=1234)
p.add_argument("--head", choices=["none", "classifier"], default="none")
p.add_argument("--layers", type=int, default=2)
p.add_argument("--hidden", type=int, default=32)
p.add_argument("--heads", type=int, default=2)
p.add_argument("--intermediate", type=int, default=128)
p.add_argument("--init", choices=["fixed", "fan-in"], default="fixed",
               help="weight scale: fixed (std 0.2 / 0.5, the tiny fixture) or fan-in (std 1/sqrt(n_in), embeddings 0.02: "
                    "keeps a wide model's activations in a realistic range)")
p.add_argument("--model-max-length", type=int, default=512, help="tokenizer_config.json model_max_length (transformers.js truncates there)")
p.add_argument("--quantize", action="store_true",
               help="also write onnx/model_quantized.onnx: every MatMul by a weight as dynamic int8 "
                    "(DynamicQuantizeLinear + MatMulInteger, per-tensor symmetric int8 weights, as onnxruntime's quantize_dynamic does)")
args = p.parse_args()

VOCAB, HIDDEN, HEADS, LAYERS, INTER, MAXPOS, TYPES = 30522, args.hidden, args.heads, args.layers, args.intermediate, 512, 2
if HIDDEN % HEADS != 0:
    p.error(f"--hidden {HIDDEN} is not a multiple of --heads {HEADS}")
FAN_IN = args.init == "fan-in"
HEAD_DIM = HIDDEN // HEADS
rng = np.random.default_rng(args.seed)
inits = []
nodes = []


def w(name, shape, std):
    inits.append(numpy_helper.from_array(rng.normal(0.0, std, size=shape).astype(np.float32), name))
    return name


def const(name, array):
    inits.append(numpy_helper.from_array(np.asarray(array), name))
    return name


def node(op, inputs, output, **kw):
    nodes.append(helper.make_node(op, inputs, [output], **kw))
    return output


def layer_norm(x, prefix):
    gamma = prefix + ".gamma"
    beta = prefix + ".beta"
    inits.append(numpy_helper.from_array((1.0 + rng.normal(0, 0.1, HIDDEN)).astype(np.float32), gamma))
    inits.append(numpy_helper.from_array(rng.normal(0, 0.1, HIDDEN).astype(np.float32), beta))
    return node("LayerNormalization", [x, gamma, beta], prefix + ".out", axis=-1, epsilon=1e-12)


def linear(x, prefix, n_in, n_out):
    mm = node("MatMul", [x, w(prefix + ".W", (n_in, n_out), 1.0 / np.sqrt(n_in) if FAN_IN else 0.2)], prefix + ".mm")
    return node("Add", [mm, w(prefix + ".b", (n_out,), 0.02 if FAN_IN else 0.05)], prefix + ".out")


EMB_STD = 0.02 if FAN_IN else 0.5


# Embeddings.
we = node("Gather", [w("word_embeddings", (VOCAB, HIDDEN), EMB_STD), "input_ids"], "emb.word", axis=0)
shape = node("Shape", ["input_ids"], "emb.shape")
seq_len = node("Gather", [shape, const("one_idx", np.array(1, dtype=np.int64))], "emb.seqlen", axis=0)
pos_ids = node("Range", [const("zero_i64", np.array(0, dtype=np.int64)), seq_len, const("one_i64", np.array(1, dtype=np.int64))], "emb.posids")
pe = node("Gather", [w("position_embeddings", (MAXPOS, HIDDEN), EMB_STD), pos_ids], "emb.pos", axis=0)
te = node("Gather", [w("token_type_embeddings", (TYPES, HIDDEN), EMB_STD), "token_type_ids"], "emb.type", axis=0)
x = node("Add", [node("Add", [we, pe], "emb.sum1"), te], "emb.sum2")
x = layer_norm(x, "emb.ln")

# Additive attention mask [B, 1, 1, T]: (1 - mask) * -10000.
mf = node("Cast", ["attention_mask"], "mask.f", to=TensorProto.FLOAT)
inv = node("Sub", [const("one_f", np.array(1.0, dtype=np.float32)), mf], "mask.inv")
neg = node("Mul", [inv, const("neg_big", np.array(-10000.0, dtype=np.float32))], "mask.neg")
ext = node("Unsqueeze", [neg, const("mask_axes", np.array([1, 2], dtype=np.int64))], "mask.ext")

split_shape = const("split_shape", np.array([0, 0, HEADS, HEAD_DIM], dtype=np.int64))
merge_shape = const("merge_shape", np.array([0, 0, HIDDEN], dtype=np.int64))
scale = const("att_scale", np.array(1.0 / np.sqrt(HEAD_DIM), dtype=np.float32))
sqrt2 = const("sqrt2", np.array(np.sqrt(2.0), dtype=np.float32))
half = const("half", np.array(0.5, dtype=np.float32))

for l in range(LAYERS):
    pre = f"l{l}"
    def heads(name):
        y = linear(x, f"{pre}.{name}", HIDDEN, HIDDEN)
        y = node("Reshape", [y, split_shape], f"{pre}.{name}.split")
        return node("Transpose", [y], f"{pre}.{name}.t", perm=[0, 2, 1, 3])  # [B, H, T, dh]
    q, k, v = heads("q"), heads("k"), heads("v")
    kt = node("Transpose", [k], f"{pre}.kt", perm=[0, 1, 3, 2])
    s = node("Mul", [node("MatMul", [q, kt], f"{pre}.qk"), scale], f"{pre}.scaled")
    s = node("Add", [s, ext], f"{pre}.masked")
    pr = node("Softmax", [s], f"{pre}.probs", axis=-1)
    ctx = node("MatMul", [pr, v], f"{pre}.ctx")
    ctx = node("Transpose", [ctx], f"{pre}.ctx.t", perm=[0, 2, 1, 3])
    ctx = node("Reshape", [ctx, merge_shape], f"{pre}.ctx.merge")
    att = linear(ctx, f"{pre}.o", HIDDEN, HIDDEN)
    x = layer_norm(node("Add", [x, att], f"{pre}.res1"), f"{pre}.ln1")
    h = linear(x, f"{pre}.ff1", HIDDEN, INTER)
    erf = node("Erf", [node("Div", [h, sqrt2], f"{pre}.gelu.div")], f"{pre}.gelu.erf")
    g = node("Mul", [node("Mul", [h, half], f"{pre}.gelu.half"), node("Add", [erf, const(f"{pre}.one", np.array(1.0, dtype=np.float32))], f"{pre}.gelu.add")], f"{pre}.gelu")
    f2 = linear(g, f"{pre}.ff2", INTER, HIDDEN)
    x = layer_norm(node("Add", [x, f2], f"{pre}.res2"), f"{pre}.ln2")

if args.head == "classifier":
    # BertPooler (dense + tanh on the [CLS] row) then the classifier (dropout is the identity at inference).
    cls = node("Gather", [x, const("cls_idx", np.array(0, dtype=np.int64))], "pool.cls", axis=1)  # [B, H]
    pooled = node("Tanh", [linear(cls, "pool.dense", HIDDEN, HIDDEN)], "pool.tanh")
    nodes.append(helper.make_node("Identity", [linear(pooled, "classifier", HIDDEN, 1)], ["logits"]))
    output = helper.make_tensor_value_info("logits", TensorProto.FLOAT, ["batch_size", 1])
else:
    nodes.append(helper.make_node("Identity", [x], ["last_hidden_state"]))
    output = helper.make_tensor_value_info("last_hidden_state", TensorProto.FLOAT, ["batch_size", "sequence_length", HIDDEN])
graph = helper.make_graph(
    nodes,
    "tiny_bert",
    [helper.make_tensor_value_info(n, TensorProto.INT64, ["batch_size", "sequence_length"]) for n in ("input_ids", "attention_mask", "token_type_ids")],
    [output],
    initializer=inits,
)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], producer_name="ragwasm-bert-fixture")
model.ir_version = 8
onnx.checker.check_model(model)

out = os.path.join(args.out_dir, args.name)
os.makedirs(os.path.join(out, "onnx"), exist_ok=True)
onnx.save(model, os.path.join(out, "onnx", "model.onnx"))


def quantize_dynamic_int8(m):
    """Every MatMul whose second input is a 2-D float weight becomes
    DynamicQuantizeLinear(x) -> MatMulInteger(x_q, W_q, x_zp, 0) -> Cast -> * (x_scale * W_scale), with W_q int8
    per-tensor symmetric (scale max|W| / 127): the graph onnxruntime.quantization.quantize_dynamic writes."""
    g = m.graph
    weights = {t.name: t for t in g.initializer}
    new_nodes, drop = [], set()
    for n in g.node:
        t = weights.get(n.input[1]) if n.op_type == "MatMul" else None
        if t is None or len(t.dims) != 2:
            new_nodes.append(n)
            continue
        wf = numpy_helper.to_array(t)
        scale = np.float32(max(float(np.abs(wf).max()), 1e-8) / 127.0)
        wq = np.clip(np.round(wf / scale), -127, 127).astype(np.int8)
        b = n.input[1]
        drop.add(b)
        g.initializer.extend([numpy_helper.from_array(wq, b + ".q"), numpy_helper.from_array(np.array(scale, dtype=np.float32), b + ".scale"),
                              numpy_helper.from_array(np.array(0, dtype=np.int8), b + ".zp")])
        x, o = n.input[0], n.output[0]
        new_nodes += [
            helper.make_node("DynamicQuantizeLinear", [x], [o + ".xq", o + ".xs", o + ".xzp"]),
            helper.make_node("MatMulInteger", [o + ".xq", b + ".q", o + ".xzp", b + ".zp"], [o + ".i32"]),
            helper.make_node("Cast", [o + ".i32"], [o + ".f"], to=TensorProto.FLOAT),
            helper.make_node("Mul", [o + ".xs", b + ".scale"], [o + ".s"]),
            helper.make_node("Mul", [o + ".f", o + ".s"], [o]),
        ]
    kept = [t for t in g.initializer if t.name not in drop]
    del g.initializer[:]
    g.initializer.extend(kept)
    del g.node[:]
    g.node.extend(new_nodes)
    onnx.checker.check_model(m)
    return m


if args.quantize:
    q = onnx.ModelProto()
    q.CopyFrom(model)
    onnx.save(quantize_dynamic_int8(q), os.path.join(out, "onnx", "model_quantized.onnx"))
shutil.copyfile(args.tokenizer_json, os.path.join(out, "tokenizer.json"))
with open(os.path.join(out, "config.json"), "w") as f:
    config = {
        "architectures": ["BertModel"], "model_type": "bert", "hidden_size": HIDDEN, "num_hidden_layers": LAYERS,
        "num_attention_heads": HEADS, "intermediate_size": INTER, "hidden_act": "gelu", "max_position_embeddings": MAXPOS,
        "type_vocab_size": TYPES, "vocab_size": VOCAB, "layer_norm_eps": 1e-12, "pad_token_id": 0,
    }
    if args.head == "classifier":
        config.update({"architectures": ["BertForSequenceClassification"], "num_labels": 1,
                       "id2label": {"0": "LABEL_0"}, "label2id": {"LABEL_0": 0}, "problem_type": "regression"})
    json.dump(config, f, indent=1)
with open(os.path.join(out, "tokenizer_config.json"), "w") as f:
    json.dump({
        "tokenizer_class": "BertTokenizer", "do_lower_case": True, "model_max_length": args.model_max_length,
        "cls_token": "[CLS]", "sep_token": "[SEP]", "pad_token": "[PAD]", "unk_token": "[UNK]", "mask_token": "[MASK]",
    }, f, indent=1)
# A model whose inputs do not match a text embedder (for the bad-input tests).
bad = helper.make_graph(
    [helper.make_node("Identity", ["pixel_values"], ["last_hidden_state"])],
    "bad_inputs",
    [helper.make_tensor_value_info("pixel_values", TensorProto.FLOAT, ["batch", "tokens", 4])],
    [helper.make_tensor_value_info("last_hidden_state", TensorProto.FLOAT, ["batch", "tokens", 4])],
)
bad_model = helper.make_model(bad, opset_imports=[helper.make_opsetid("", 17)], producer_name="ragwasm-bert-fixture")
bad_model.ir_version = 8
onnx.save(bad_model, os.path.join(args.out_dir, "bad-inputs.onnx"))
# A model whose output is [batch, 4] although it takes token inputs (wrong rank for mean pooling).
flat = helper.make_graph(
    [helper.make_node("Cast", ["input_ids"], ["f"], to=TensorProto.FLOAT), helper.make_node("ReduceSum", ["f"], ["last_hidden_state"], keepdims=0)],
    "bad_outputs",
    [helper.make_tensor_value_info("input_ids", TensorProto.INT64, ["batch", "tokens"])],
    [helper.make_tensor_value_info("last_hidden_state", TensorProto.FLOAT, [])],
)
flat_model = helper.make_model(flat, opset_imports=[helper.make_opsetid("", 13)], producer_name="ragwasm-bert-fixture")
flat_model.ir_version = 7
onnx.save(flat_model, os.path.join(args.out_dir, "bad-outputs.onnx"))
if args.head == "classifier":
    # A 'logits' output of shape [batch, tokens] (not one logit per pair) for the reranker's shape check.
    wide = helper.make_graph(
        [helper.make_node("Cast", ["input_ids"], ["logits"], to=TensorProto.FLOAT)],
        "bad_logits",
        [helper.make_tensor_value_info("input_ids", TensorProto.INT64, ["batch", "tokens"])],
        [helper.make_tensor_value_info("logits", TensorProto.FLOAT, ["batch", "tokens"])],
    )
    wide_model = helper.make_model(wide, opset_imports=[helper.make_opsetid("", 17)], producer_name="ragwasm-bert-fixture")
    wide_model.ir_version = 8
    onnx.save(wide_model, os.path.join(args.out_dir, "bad-logits.onnx"))
    # A declared 2-label classifier ('logits' [batch, 2]): rejected when the reranker is created.
    two = helper.make_graph(
        [helper.make_node("Cast", ["input_ids"], ["ids.f"], to=TensorProto.FLOAT),
         helper.make_node("ReduceSum", ["ids.f", "two.axes"], ["ids.sum"], keepdims=1),
         helper.make_node("Concat", ["ids.sum", "ids.sum"], ["logits"], axis=1)],
        "two_logits",
        [helper.make_tensor_value_info("input_ids", TensorProto.INT64, ["batch", "tokens"])],
        [helper.make_tensor_value_info("logits", TensorProto.FLOAT, ["batch", 2])],
        initializer=[numpy_helper.from_array(np.array([1], dtype=np.int64), "two.axes")],
    )
    two_model = helper.make_model(two, opset_imports=[helper.make_opsetid("", 17)], producer_name="ragwasm-bert-fixture")
    two_model.ir_version = 8
    onnx.save(two_model, os.path.join(args.out_dir, "two-logits.onnx"))
print(json.dumps({"dir": out, "seed": args.seed, "bytes": os.path.getsize(os.path.join(out, "onnx", "model.onnx"))}))
