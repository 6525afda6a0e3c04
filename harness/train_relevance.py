"""Train the relevance scorer on every domain's train split and export it to ONNX.

    HF_HUB_OFFLINE=1 .venv/bin/python -m harness.train_relevance --out models/relevance.onnx

1. Replay the train and dev splits of the office benchmark and of the out-of-domain benchmark
   (harness/ood) through the live pipeline (harness.retrieval.replay): the candidates
   of each user turn are exactly what retrieval sees at run time. Features are then recomputed
   from the replayed turns (`refeature`), so a feature change needs no new replay.
2. Label each candidate from the gold annotation (harness.retrieval.labels).
3. `fit`: train small feed-forward nets (torch, CPU, fixed seed) with every domain weighing the
   same and name-noise facts as hard negatives; calibrate each on the dev splits (Platt scaling,
   domains weighing the same) so a probability means the same in every domain; keep the net of
   lowest dev log-loss; choose the PCST prize settings on dev (F1 plus answer recall), each dev
   domain scored by a net fitted without it (`_Scored`).
4. Write the ONNX graph with the onnx helper API: pick the model's inputs -> standardize ->
   Linear/ReLU -> ... -> sigmoid, with feature names and prize settings as metadata.
No test split is ever read here.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path

import numpy as np

from engine.nlp.relevance import FEATURES, MODEL_INPUTS, MODEL_PATH
from harness.retrieval import ReplayedTurn, collect, labels

HIDDEN = ((32,), (64, 32))
THRESHOLDS = (0.3, 0.4, 0.5, 0.6, 0.7)
SCALES = (1.5, 2.0, 3.0)
RATIOS = (0.5, 0.7, 1.0)
TOPS = (1, 2, 3, 5)
# Gates of 0.3 and 0.5 cut held-out answers that top-k kept (leave-one-domain-out, companies).
GATES = (0.0, 0.1, 0.2)
HARD_NEGATIVE_WEIGHT = 3.0
_INPUT_COLUMNS = np.array([FEATURES.index(f) for f in MODEL_INPUTS])


class NumpyNet:
    """The trained net in numpy, for model selection on dev (same maths as the ONNX graph). It
    reads full FEATURES rows and picks its MODEL_INPUTS columns itself."""

    def __init__(self, mean, std, layers, prizes=None):
        self.mean, self.std, self.layers = mean, std, layers
        self.prizes = prizes or {"threshold": 0.5, "scale": 2.0}

    def logits(self, X: np.ndarray) -> np.ndarray:
        h = (np.asarray(X, dtype=np.float32)[:, _INPUT_COLUMNS] - self.mean) / self.std
        for i, (W, b) in enumerate(self.layers):
            h = h @ W + b
            if i < len(self.layers) - 1:
                h = np.maximum(h, 0.0)
        return h.reshape(-1)

    def predict(self, X: np.ndarray) -> np.ndarray:
        if len(X) == 0:
            return np.zeros(0, dtype=np.float32)
        return (1.0 / (1.0 + np.exp(-np.clip(self.logits(X), -60.0, 60.0)))).astype(np.float32)


def domain_of(turn: ReplayedTurn) -> str:
    return getattr(turn, "domain", "office")


# ---------------------------------------------------------------- data

def refeature(turns: list[ReplayedTurn], encoder) -> None:
    """Recompute every turn's features (and X) from its replayed state with today's
    engine.stages.score.features: the entities the previous user turn linked are those of the latest
    earlier turn of the same dialogue that linked any, as engine.state.Focus keeps them."""
    from engine.focus import linked_now
    from engine.stages.score.features import compute

    focus: dict[str, dict[int, dict[str, float]]] = defaultdict(dict)
    for t in turns:
        seen = focus[t.dialogue_id]
        earlier = [n for n in seen if n < t.state.turn and seen[n]]
        previous = seen[max(earlier)] if earlier else {}
        now = linked_now(t.state)
        seen[t.state.turn] = now
        t.X, _ = compute(t.state, t.state.candidates, encoder, previous, now)
        if not t.state.candidates:
            t.X = np.zeros((0, len(FEATURES)), dtype=np.float32)


def rows(turns: list[ReplayedTurn]) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[str]]:
    """Features, labels, loss weights (every domain weighs the same in total; name-noise facts
    that are not relevant weigh HARD_NEGATIVE_WEIGHT) and the domain of each row."""
    noise = FEATURES.index("name_noise")
    Xs, ys, doms = [], [], []
    for t in turns:
        if len(t.X):
            Xs.append(t.X)
            ys.append(labels(t.state.candidates, t.gold))
            doms += [domain_of(t)] * len(t.X)
    X, y = np.concatenate(Xs), np.concatenate(ys)
    counts = defaultdict(int)
    for d in doms:
        counts[d] += 1
    w = np.array([len(doms) / (len(counts) * counts[d]) for d in doms], dtype=np.float32)
    w[(X[:, noise] > 0) & (y == 0)] *= HARD_NEGATIVE_WEIGHT
    return X, y, w, doms


def dev_rows(turns: list[ReplayedTurn]) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[str]]:
    """As rows, without the hard-negative weight: calibration fits the probabilities as they are."""
    X, y, w, doms = rows(turns)
    return X, y, w / np.where((X[:, FEATURES.index("name_noise")] > 0) & (y == 0), HARD_NEGATIVE_WEIGHT, 1.0), doms


# ---------------------------------------------------------------- training

def train_net(X: np.ndarray, y: np.ndarray, w: np.ndarray, hidden: tuple[int, ...], seed: int, epochs: int) -> NumpyNet:
    import torch

    torch.manual_seed(seed)
    Xi = X[:, _INPUT_COLUMNS]
    mean = Xi.mean(axis=0).astype(np.float32)
    std = (Xi.std(axis=0) + 1e-6).astype(np.float32)
    Xt = torch.tensor((Xi - mean) / std, dtype=torch.float32)
    yt = torch.tensor(y, dtype=torch.float32).reshape(-1, 1)
    wt = torch.tensor(w, dtype=torch.float32).reshape(-1, 1)
    sizes = (Xi.shape[1], *hidden, 1)
    mods: list = []
    for i in range(len(sizes) - 1):
        mods.append(torch.nn.Linear(sizes[i], sizes[i + 1]))
        if i < len(sizes) - 2:
            mods.append(torch.nn.ReLU())
    net = torch.nn.Sequential(*mods)
    opt = torch.optim.Adam(net.parameters(), lr=3e-3, weight_decay=1e-5)
    gen = torch.Generator().manual_seed(seed)
    for _ in range(epochs):
        order = torch.randperm(len(Xt), generator=gen)
        for start in range(0, len(Xt), 2048):
            idx = order[start:start + 2048]
            opt.zero_grad()
            loss = torch.nn.functional.binary_cross_entropy_with_logits(net(Xt[idx]), yt[idx], weight=wt[idx])
            loss.backward()
            opt.step()
    linears = [m for m in net if isinstance(m, torch.nn.Linear)]
    layers = [(m.weight.detach().numpy().T.copy(), m.bias.detach().numpy().copy()) for m in linears]
    return NumpyNet(mean, std, layers)


def calibrate(net: NumpyNet, X: np.ndarray, y: np.ndarray, w: np.ndarray) -> float:
    """Platt scaling on dev (a, b with p = sigmoid(a z + b), by weighted Newton steps), folded
    into the last layer; returns the weighted dev log-loss after it."""
    z = net.logits(X).astype(np.float64)
    a, b = 1.0, 0.0
    for _ in range(50):
        p = 1.0 / (1.0 + np.exp(-np.clip(a * z + b, -60, 60)))
        g = w * (p - y)
        grad = np.array([(g * z).sum(), g.sum()])
        h = w * p * (1 - p)
        hess = np.array([[(h * z * z).sum(), (h * z).sum()], [(h * z).sum(), h.sum()]]) + 1e-9 * np.eye(2)
        step = np.linalg.solve(hess, grad)
        a, b = a - step[0], b - step[1]
        if np.abs(step).max() < 1e-7:
            break
    W, c = net.layers[-1]
    net.layers[-1] = ((W * a).astype(np.float32), (c * a + b).astype(np.float32))
    p = np.clip(net.predict(X).astype(np.float64), 1e-7, 1 - 1e-7)
    return float(-(w * (y * np.log(p) + (1 - y) * np.log(1 - p))).sum() / w.sum())


def by_domain(turns: list[ReplayedTurn]) -> dict[str, list[ReplayedTurn]]:
    out: dict[str, list[ReplayedTurn]] = defaultdict(list)
    for t in turns:
        out[domain_of(t)].append(t)
    return dict(out)


def dev_figures(groups: dict[str, list[ReplayedTurn]], net, retriever: str, prizes: dict | None,
                k: int, cap: int) -> dict[str, tuple[float, float, int]]:
    """Per domain: node+edge F1, answer-fact recall (harness/retrieval/answer_facts.py)
    and the number of turns with answer facts."""
    from harness.retrieval import evaluate

    out = {}
    for d, turns in groups.items():
        r = evaluate(turns, retriever, "learned", k=k, cap=cap, model=net, prizes=prizes)
        out[d] = (r["f1"], r["answer_recall"] or 0.0, r["answer_turns"])
    return out


class _Scored:
    """Predictions on the dev turns, computed once for every prize setting tried: each dev
    domain's by a net fitted without that domain's train split (calibrated on the other dev
    domains), so the prizes are chosen on probabilities as sure as those of a KG the shipped
    model never saw, not on the sharper ones of the domains it learnt."""

    def __init__(self, net: NumpyNet, dev: list[ReplayedTurn], train: list[ReplayedTurn],
                 hidden: tuple[int, ...], seed: int, epochs: int):
        self.prizes = net.prizes
        self._by_id = {}
        domains = {domain_of(t) for t in dev}
        for d in sorted(domains):
            rest = [t for t in train if domain_of(t) != d]
            other_dev = [t for t in dev if domain_of(t) != d]
            fold = net
            if len(domains) > 1 and rest and other_dev:
                fold = train_net(*rows(rest)[:3], hidden, seed, epochs)
                calibrate(fold, *dev_rows(other_dev)[:3])
            self._by_id.update({id(t.X): fold.predict(t.X) for t in dev if domain_of(t) == d})

    def predict(self, X: np.ndarray) -> np.ndarray:
        return self._by_id[id(X)]


def choose_prizes(scored: _Scored, dev: list[ReplayedTurn], k: int, cap: int,
                  log: Callable[[str], None]) -> tuple[dict, dict, dict]:
    """The prize settings of best dev objective (over domains, mean of PCST F1 + answer recall,
    on the `scored` held-out probabilities)
    among those that cover top-k: in every dev domain PCST states the answer in as many turns as
    top-k (docs/design.md, "Relevance model": PCST never knows less than top-k; with a turn of
    slack per domain the gate of focused turns drops answers on held-out domains that top-k keeps); the
    best overall when none covers. Searched one axis after the other (threshold and scale together, then
    ratio, then top, then gate), each from the best so far."""
    groups = by_domain(dev)
    topk = dev_figures(groups, scored, "topk", None, k, cap)
    best: tuple[bool, float, dict, dict] | None = None

    def trial(prizes: dict) -> None:
        nonlocal best
        per = dev_figures(groups, scored, "pcst", prizes, k, cap)
        covers = all(round((topk[d][1] - per[d][1]) * per[d][2]) <= 0 for d in per)
        key = (covers, float(np.mean([f + r for f, r, _ in per.values()])))
        if best is None or key > best[:2]:
            best = (*key, prizes, per)

    for t in THRESHOLDS:
        for s in SCALES:
            if s * t >= 0.5:  # else the best fact could not pay for even half an edge
                trial({"threshold": t, "scale": s, "ratio": 1.0, "top": 1, "gate": 0.0})
    for ratio in RATIOS:
        trial({**best[2], "ratio": ratio})
    for top in TOPS:
        trial({**best[2], "top": top})
    for gate in GATES:
        trial({**best[2], "gate": gate})
    covers, objective, prizes, per = best
    log(f"prizes {prizes}: dev objective {objective:.4f}"
        + ("" if covers else "; no setting reached top-k's answer recall in every dev domain"))
    return prizes, per, topk


def fit(train_turns: list[ReplayedTurn], dev_turns: list[ReplayedTurn], *, seed: int = 0, epochs: int = 12,
        k: int = 5, cap: int = 25, hidden: tuple[tuple[int, ...], ...] = HIDDEN,
        log: Callable[[str], None] | None = None) -> NumpyNet:
    """Train, calibrate and choose prizes on these replayed turns (tagged with `.domain`, office
    when untagged); the returned model has `.predict(X)` (X in FEATURES order), `.prizes`, and
    `.report` (dev figures per domain)."""
    log = log or (lambda line: print(line, file=sys.stderr))
    X, y, w, doms = rows(train_turns)
    Xd, yd, wd, ddoms = dev_rows(dev_turns)
    log(f"train rows {len(y)} ({y.mean():.3f} relevant) from {sorted(set(doms))}; dev rows {len(yd)}")
    best = None
    for shape in hidden:
        net = train_net(X, y, w, shape, seed, epochs)
        loss = calibrate(net, Xd, yd, wd)
        log(f"hidden {shape}: calibrated dev log-loss {loss:.4f}")
        if best is None or loss < best[0]:
            best = (loss, shape, net)
    loss, shape, net = best
    prizes, per, topk = choose_prizes(_Scored(net, dev_turns, train_turns, shape, seed, epochs), dev_turns, k, cap, log)
    net.prizes = prizes
    net.report = {"hidden": list(shape), "dev_log_loss": round(loss, 4), "train_rows": int(len(y)),
                  "train_positive": int(y.sum()), "domains": sorted(set(doms)),
                  "dev": dev_report(per, topk)}
    return net


def dev_report(per: dict, topk: dict) -> dict:
    """The dev figures per domain that the model file carries: PCST's beside top-k's."""
    return {d: {"pcst_f1": round(per[d][0], 4), "pcst_answer_recall": round(per[d][1], 4),
                "triples_f1": round(topk[d][0], 4), "triples_answer_recall": round(topk[d][1], 4)} for d in per}


# ---------------------------------------------------------------- export

def export_onnx(net: NumpyNet, path: Path, metadata: dict[str, str]) -> None:
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    inits = [numpy_helper.from_array(_INPUT_COLUMNS.astype(np.int64), "inputs"),
             numpy_helper.from_array(net.mean.astype(np.float32), "mean"),
             numpy_helper.from_array(net.std.astype(np.float32), "std")]
    nodes = [helper.make_node("Gather", ["features", "inputs"], ["picked"], axis=1),
             helper.make_node("Sub", ["picked", "mean"], ["centered"]),
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
    for key, value in metadata.items():
        entry = model.metadata_props.add()
        entry.key, entry.value = key, value
    onnx.checker.check_model(model)
    path.write_bytes(model.SerializeToString())


def reprize(path: Path, train: list[ReplayedTurn], dev: list[ReplayedTurn], k: int, cap: int, command: str) -> int:
    """Choose the prize settings of the model file at `path` again and write them into it."""
    import onnx

    from engine.nlp.relevance import RelevanceModel

    model = RelevanceModel(path)
    doc = onnx.load(str(path))
    meta = {p.key: p for p in doc.metadata_props}
    scored = _Scored(model, dev, train, tuple(json.loads(meta["hidden"].value)), int(meta["seed"].value),
                     int(meta["epochs"].value))
    prizes, per, topk = choose_prizes(scored, dev, k, cap, lambda line: print(line, file=sys.stderr))
    meta["pcst_prizes"].value = json.dumps(prizes)
    dev_figs = dev_report(per, topk)
    meta["dev"].value = json.dumps(dev_figs)
    entry = meta.get("reprize") or doc.metadata_props.add()
    entry.key, entry.value = "reprize", command
    onnx.save(doc, str(path))
    print(json.dumps({"out": str(path), "prizes": prizes, "dev": dev_figs}, indent=1))
    return 0


def main(argv: list[str] | None = None) -> int:
    from harness import ood

    parser = argparse.ArgumentParser(prog="python -m harness.train_relevance", description=__doc__.split("\n")[0])
    parser.add_argument("--out", default=str(MODEL_PATH))
    parser.add_argument("--domains", nargs="+", default=["office", *ood.domains()], metavar="D",
                        help="domains whose train/dev splits are used (office and the out-of-domain benchmark's)")
    parser.add_argument("--limit", type=int, help="only the first N dialogues of each train split")
    parser.add_argument("--office-limit", type=int, help="only the first N dialogues of the office train split "
                        "(default: --limit; office dialogues hold about four user turns, the others one or two)")
    parser.add_argument("--dev-limit", type=int, help="only the first N dialogues of each dev split")
    parser.add_argument("--epochs", type=int, default=12)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--k", type=int, default=5)
    parser.add_argument("--subgraph-cap", type=int, default=25)
    parser.add_argument("--replay-cache", metavar="DIR", help="keep the replayed splits here and reuse them")
    parser.add_argument("--reprize", action="store_true",
                        help="keep the net in --out and choose only its PCST prize settings again, on the dev splits")
    args = parser.parse_args(argv)
    command = "python -m harness.train_relevance " + " ".join(argv if argv is not None else sys.argv[1:])

    import torch

    torch.set_num_threads(2)
    from engine.nlp.encoder import Encoder

    cache = Path(args.replay_cache) if args.replay_cache else None
    encoder = Encoder(cache / "embeddings" if cache else None)
    resources = {"encoder": encoder}
    train, dev = [], []
    for d in args.domains:
        limit = (args.office_limit or args.limit) if d == "office" else args.limit
        train += collect("train", limit, resources, cache, domain=d)
        dev += collect("dev", args.dev_limit, resources, cache, domain=d)
    refeature(train + dev, encoder)
    if args.reprize:
        return reprize(Path(args.out), train, dev, args.k, args.subgraph_cap, command)
    net = fit(train, dev, seed=args.seed, epochs=args.epochs, k=args.k, cap=args.subgraph_cap)

    from harness.retrieval.calibration import reliability

    table = reliability(dev, net.predict)
    out = Path(args.out)
    meta = {"features": json.dumps(list(FEATURES)), "inputs": json.dumps(list(MODEL_INPUTS)),
            "pcst_prizes": json.dumps(net.prizes), "hidden": json.dumps(net.report["hidden"]),
            "epochs": str(args.epochs), "seed": str(args.seed), "domains": json.dumps(args.domains),
            "train_rows": str(net.report["train_rows"]), "train_positive": str(net.report["train_positive"]),
            "dev": json.dumps(net.report["dev"]),
            "command": command}
    export_onnx(net, out, meta)

    from engine.nlp.relevance import RelevanceModel

    X = np.concatenate([t.X for t in dev if len(t.X)])[:2000]
    diff = float(np.abs(RelevanceModel(out).predict(X) - net.predict(X)).max())
    assert diff < 1e-4, f"ONNX and numpy disagree by {diff}"
    print(json.dumps({"out": str(out), **net.report, "prizes": net.prizes, "reliability": table,
                      "onnx_max_abs_diff": diff}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
