#!/usr/bin/python3
"""Exports the static model's table (models/build/static-model.bin) as an ONNX graph so the ONNX
Runtime path runs end to end on a real model offline:

  input_ids [B, T] int64 (vocabulary indices from StaticEmbedder word ids), attention_mask [B, T] int64
  last_hidden_state [B, T, dims] float32 = Gather(int8 table) -> Cast(float) * Gather(scales)[..., None]

Mean pooling of last_hidden_state over the mask (done by ragwasm in WASM) gives the plain mean of the
word vectors (no SIF weights, no component removal: those stay in the C++ StaticEmbedder).
Run with Debian's python3-onnx: /usr/bin/python3 models/export-static-onnx.py [in.bin] [out.onnx]
"""
import os
import struct
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

here = os.path.dirname(os.path.abspath(__file__))
src = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "build", "static-model.bin")
dst = sys.argv[2] if len(sys.argv) > 2 else os.path.join(here, "build", "static-model.onnx")

b = open(src, "rb").read()
assert b[:8] == b"RWSTATIC", "not a RWSTATIC file"
(version,) = struct.unpack_from("<I", b, 8)
if version == 2:
    # The one container (docs/formats.md): u32 section count, then u32 tag | u64 length | payload.
    # The XXH64 seal is checked by the C++ loader, not here (this script only reads a built model).
    (count,) = struct.unpack_from("<I", b, 12)
    sections, pos = {}, 16
    for _ in range(count):
        tag, length = struct.unpack_from("<IQ", b, pos)
        sections[tag] = (pos + 12, length)
        pos += 12 + length
    assert pos + 8 == len(b), "container sections do not end at the seal"
    dims, n = struct.unpack_from("<II", b, sections[1][0])
    scales = np.frombuffer(b, dtype="<f4", count=n, offset=sections[4][0]).astype(np.float32)
    table = np.frombuffer(b, dtype=np.int8, count=n * dims, offset=sections[6][0]).reshape(n, dims)
elif version == 1:
    dims, n = struct.unpack_from("<II", b, 12)
    (words_bytes,) = struct.unpack_from("<I", b, 24)
    pos = (32 + words_bytes + 3) // 4 * 4
    pos += 4 * n  # probabilities (unused here)
    scales = np.frombuffer(b, dtype="<f4", count=n, offset=pos).astype(np.float32)
    pos += 4 * n + 4 * dims  # scales, principal component
    table = np.frombuffer(b, dtype=np.int8, count=n * dims, offset=pos).reshape(n, dims)
else:
    raise SystemExit(f"static model format version {version}: this script reads versions 1 and 2")

nodes = [
    helper.make_node("Gather", ["table", "input_ids"], ["q"], axis=0),
    helper.make_node("Cast", ["q"], ["qf"], to=TensorProto.FLOAT),
    helper.make_node("Gather", ["scales", "input_ids"], ["s"], axis=0),
    helper.make_node("Unsqueeze", ["s", "axes"], ["s3"]),
    helper.make_node("Mul", ["qf", "s3"], ["last_hidden_state"]),
]
graph = helper.make_graph(
    nodes,
    "ragwasm_static_table",
    [
        helper.make_tensor_value_info("input_ids", TensorProto.INT64, ["batch", "tokens"]),
        helper.make_tensor_value_info("attention_mask", TensorProto.INT64, ["batch", "tokens"]),
    ],
    [helper.make_tensor_value_info("last_hidden_state", TensorProto.FLOAT, ["batch", "tokens", dims])],
    initializer=[
        numpy_helper.from_array(np.ascontiguousarray(table), "table"),
        numpy_helper.from_array(scales, "scales"),
        numpy_helper.from_array(np.array([2], dtype=np.int64), "axes"),
    ],
)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], producer_name="ragwasm")
model.ir_version = 7
onnx.checker.check_model(model)
os.makedirs(os.path.dirname(os.path.abspath(dst)), exist_ok=True)
onnx.save(model, dst)
print(f'{{"out": "{dst}", "words": {n}, "dims": {dims}, "bytes": {os.path.getsize(dst)}}}')
