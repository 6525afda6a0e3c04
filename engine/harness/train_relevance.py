"""Train the relevance scorer on the generated benchmark and export it to ONNX.

    HF_HUB_OFFLINE=1 .venv/bin/python -m engine.harness.train_relevance --out models/relevance.onnx

1. Replay the train and dev splits through the live pipeline (engine.harness.eval.retrieval.replay):
   the candidates and features of each user turn are exactly what retrieval sees at run time.
2. Label each candidate from the gold annotation (engine.harness.eval.retrieval.labels).
3. Train a few small feed-forward nets (torch, CPU, fixed seed) on train; for each, pick the
   PCST prize threshold and scale on dev; keep the net and prizes with the best dev PCST F1.
4. Write the ONNX graph with the onnx helper API: standardize -> Linear/ReLU -> ... -> sigmoid,
   the feature names and prize settings as metadata. Check it in onnxruntime against torch.
The test split is never read here.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

from engine.harness.eval.retrieval import collect, evaluate, labels
from engine.stages.score.features import FEATURES
from engine.stages.score.relevance import MODEL_PATH

HIDDEN = ((32,), (32, 16), (64, 32))
THRESHOLDS = (0.2, 0.3, 0.4, 0.5, 0.6, 0.7)
SCALES = (1.0, 1.5, 2.0, 3.0, 4.0)


class NumpyNet:
    """The trained net in numpy, for model selection on dev (same maths as the ONNX graph)."""

    def __init__(self, mean, std, layers, prizes=None):
        self.mean, self.std, self.layers = mean, std, layers
        self.prizes = prizes or {"threshold": 0.5, "scale": 2.0}

    def predict(self, X: np.ndarray) -> np.ndarray:
        h = (np.asarray(X, dtype=np.float32) - self.mean) / self.std
        for i, (W, b) in enumerate(self.layers):
            h = h @ W + b
            if i < len(self.layers) - 1:
                h = np.maximum(h, 0.0)
        return (1.0 / (1.0 + np.exp(-np.clip(h, -60.0, 60.0)))).reshape(-1)


def train_net(X: np.ndarray, y: np.ndarray, hidden: tuple[int, ...], seed: int, epochs: int) -> NumpyNet:
    import torch

    torch.manual_seed(seed)
    mean = X.mean(axis=0).astype(np.float32)
    std = (X.std(axis=0) + 1e-6).astype(np.float32)
    Xt = torch.tensor((X - mean) / std, dtype=torch.float32)
    yt = torch.tensor(y, dtype=torch.float32).reshape(-1, 1)
    sizes = (X.shape[1], *hidden, 1)
    mods: list = []
    for i in range(len(sizes) - 1):
        mods.append(torch.nn.Linear(sizes[i], sizes[i + 1]))
        if i < len(sizes) - 2:
            mods.append(torch.nn.ReLU())
    net = torch.nn.Sequential(*mods)
    opt = torch.optim.Adam(net.parameters(), lr=3e-3, weight_decay=1e-5)
    loss_fn = torch.nn.BCEWithLogitsLoss()
    gen = torch.Generator().manual_seed(seed)
    for _ in range(epochs):
        order = torch.randperm(len(Xt), generator=gen)
        for start in range(0, len(Xt), 2048):
            idx = order[start:start + 2048]
            opt.zero_grad()
            loss = loss_fn(net(Xt[idx]), yt[idx])
            loss.backward()
            opt.step()
    linears = [m for m in net if isinstance(m, torch.nn.Linear)]
    layers = [(m.weight.detach().numpy().T.copy(), m.bias.detach().numpy().copy()) for m in linears]
    return NumpyNet(mean, std, layers)


def export_onnx(net: NumpyNet, path: Path, metadata: dict[str, str]) -> None:
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    inits = [numpy_helper.from_array(net.mean.astype(np.float32), "mean"),
             numpy_helper.from_array(net.std.astype(np.float32), "std")]
    nodes = [helper.make_node("Sub", ["features", "mean"], ["centered"]),
             helper.make_node("Div", ["centered", "std"], ["h0"])]
    h = "h0"
    for i, (W, b) in enumerate(net.layers):
        inits += [numpy_helper.from_array(W.astype(np.float32), f"W{i}"),
                  numpy_helper.from_array(b.astype(np.float32), f"b{i}")]
        nodes += [helper.make_node("MatMul", [h, f"W{i}"], [f"m{i}"]),
                  helper.make_node("Add", [f"m{i}", f"b{i}"], [f"z{i}"])]
        if i < len(net.layers) - 1:
            nodes.append(helper.make_node("Relu", [f"z{i}"], [f"h{i + 1}"]))
            h = f"h{i + 1}"
        else:
            nodes.append(helper.make_node("Sigmoid", [f"z{i}"], ["logit_p"]))
    nodes.append(helper.make_node("Flatten", ["logit_p"], ["p"], axis=0))
    graph = helper.make_graph(
        nodes, "relevance",
        [helper.make_tensor_value_info("features", TensorProto.FLOAT, ["n", len(FEATURES)])],
        [helper.make_tensor_value_info("p", TensorProto.FLOAT, [1, "n"])], inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], producer_name="kgchat")
    model.ir_version = 8
    for k, v in metadata.items():
        entry = model.metadata_props.add()
        entry.key, entry.value = k, v
    onnx.checker.check_model(model)
    path.write_bytes(model.SerializeToString())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m engine.harness.train_relevance", description=__doc__.split("\n")[0])
    parser.add_argument("--out", default=str(MODEL_PATH))
    parser.add_argument("--limit", type=int, help="only the first N dialogues of each split (quick runs)")
    parser.add_argument("--epochs", type=int, default=12)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--k", type=int, default=5)
    parser.add_argument("--subgraph-cap", type=int, default=25)
    parser.add_argument("--replay-cache", metavar="DIR", help="keep the replayed splits here and reuse them")
    args = parser.parse_args(argv)

    import torch

    torch.set_num_threads(2)
    from engine.stages.score.encoder import Encoder

    resources = {"encoder": Encoder()}
    cache = Path(args.replay_cache) if args.replay_cache else None
    train = collect("train", args.limit, resources, cache)
    dev = collect("dev", args.limit, resources, cache)
    X = np.concatenate([t.X for t in train if len(t.X)])
    y = np.concatenate([labels(t.state.candidates, t.gold) for t in train if len(t.X)])
    print(f"train rows {len(y)}, positive {int(y.sum())} ({y.mean():.3f})", file=sys.stderr)

    best = None
    for hidden in HIDDEN:
        net = train_net(X, y, hidden, args.seed, args.epochs)
        for t in THRESHOLDS:
            for s in SCALES:
                net.prizes = {"threshold": t, "scale": s}
                r = evaluate(dev, "pcst", "learned", k=args.k, cap=args.subgraph_cap, model=net)
                if best is None or r["f1"] > best[0]["f1"]:
                    best = (r, hidden, dict(net.prizes), net)
        print(f"hidden {hidden}: best dev PCST F1 so far {best[0]['f1']:.4f} "
              f"(hidden {best[1]}, prizes {best[2]})", file=sys.stderr)
    dev_result, hidden, prizes, net = best
    net.prizes = prizes
    topk = evaluate(dev, "topk", "learned", k=args.k, cap=args.subgraph_cap, model=net)

    out = Path(args.out)
    meta = {"features": json.dumps(list(FEATURES)), "pcst_prizes": json.dumps(prizes),
            "hidden": json.dumps(list(hidden)), "epochs": str(args.epochs), "seed": str(args.seed),
            "train_rows": str(len(y)), "train_positive": str(int(y.sum())),
            "dev_pcst_f1": str(dev_result["f1"]), "dev_topk_f1": str(topk["f1"]),
            "command": "python -m engine.harness.train_relevance " + " ".join(argv if argv is not None else sys.argv[1:])}
    export_onnx(net, out, meta)

    from engine.stages.score.relevance import RelevanceModel

    check = RelevanceModel(out).predict(X[:1000])
    diff = float(np.abs(check - net.predict(X[:1000])).max())
    assert diff < 1e-4, f"ONNX and numpy disagree by {diff}"
    print(json.dumps({"out": str(out), "hidden": hidden, "prizes": prizes, "dev_pcst": dev_result,
                      "dev_topk": topk, "train_rows": len(y), "train_positive": int(y.sum()),
                      "onnx_max_abs_diff": diff}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
