#!/usr/bin/env python3
"""make gpu-report's framework baseline: the tutorial's training step in
PyTorch on the GPU, fp32, timed the way the chapters are (the median of the
iterations after TIMING_WARMUP, each between two CUDA events), eager and,
where it works, under torch.compile. The same model as every chapter
(README.md, "The model"): x = pixel / 255 with a bias feature, W 10 x 785
from the same hash, squared-error loss against one-hot labels, full batch,
W -= lr * (2/N) (Yhat - Y) X.

    python3 common/scripts/torch_baseline.py --dataset DIR --iters N --repeats R [--limit N] --out FILE

Writes FILE: plots/compare.sh's columns, one row per mode that ran
(pytorch-eager, pytorch-compile). Exits 1 without torch or CUDA."""
import argparse
import datetime
import statistics
import sys

WARMUP = 3  # common/host/timing.h's TIMING_WARMUP
COLUMNS = ("chapter platform device images iterations repeats median_ms min_ms max_ms run_min_ms "
           "run_max_ms speedup_vs_01 train_accuracy test_accuracy final_loss date").split()


def idx(path, dims):
    with open(path, "rb") as f:
        data = f.read()
    if len(data) < 4 + 4 * dims or data[2] != 8 or data[3] != dims:
        sys.exit(f"torch_baseline: {path}: not an IDX file of unsigned bytes with {dims} dimensions")
    shape = [int.from_bytes(data[4 + 4 * i:8 + 4 * i], "big") for i in range(dims)]
    return data[4 + 4 * dims:], shape


def init_weights(torch):
    def u(s):
        s &= 0xFFFFFFFF
        s = ((s ^ (s >> 16)) * 0x85EBCA6B) & 0xFFFFFFFF
        s = ((s ^ (s >> 13)) * 0xC2B2AE35) & 0xFFFFFFFF
        s ^= s >> 16
        return (s >> 8) / 2.0 ** 24
    return torch.tensor([0.01 * (u(i + 1234567) - 0.5) for i in range(10 * 785)],
                        dtype=torch.float32).reshape(10, 785)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--dataset", required=True)
    p.add_argument("--iters", type=int, default=100)
    p.add_argument("--repeats", type=int, default=3)
    p.add_argument("--limit", type=int, default=0)
    p.add_argument("--lr", type=float, default=0.01)
    p.add_argument("--out", required=True)
    a = p.parse_args()
    try:
        import torch
    except ImportError:
        sys.exit("torch_baseline: python3 has no torch")
    if not torch.cuda.is_available():
        sys.exit("torch_baseline: torch sees no CUDA device")
    dev = torch.device("cuda")

    def features(images, labels):
        pixels, shape = idx(f"{a.dataset}/{images}", 3)
        marks, _ = idx(f"{a.dataset}/{labels}", 1)
        n = shape[0] if not a.limit or images.startswith("t10k") else min(a.limit, shape[0])
        x = torch.frombuffer(bytearray(pixels[:n * 784]), dtype=torch.uint8).reshape(n, 784).float() / 255
        x = torch.cat([x, torch.ones(n, 1)], dim=1)
        y = torch.frombuffer(bytearray(marks[:n]), dtype=torch.uint8).long()
        return x.to(dev), y.to(dev)

    x, y = features("train-images-idx3-ubyte", "train-labels-idx1-ubyte")
    xt, yt = features("t10k-images-idx3-ubyte", "t10k-labels-idx1-ubyte")
    n = x.shape[0]
    onehot = torch.nn.functional.one_hot(y, 10).float()

    def step(w, loss, hits, i):
        scores = x @ w.T
        residual = scores - onehot
        loss[i] = (residual * residual).sum() / n
        hits[i] = (scores.argmax(dim=1) == y).sum()
        return w - a.lr * (2.0 / n) * (residual.T @ x)

    rows = []
    modes = [("pytorch-eager", step)]
    try:
        modes.append(("pytorch-compile", torch.compile(step)))
    except Exception as e:  # no compiler on this machine: eager only
        print(f"torch_baseline: torch.compile unavailable: {e}", file=sys.stderr)
    for name, fn in modes:
        run_medians, all_ms = [], []
        try:
            for _ in range(a.repeats):
                w = init_weights(torch).to(dev)
                loss = torch.zeros(a.iters, device=dev)
                hits = torch.zeros(a.iters, device=dev)
                times = []
                for i in range(a.iters):
                    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
                    start.record()
                    w = fn(w, loss, hits, i)
                    end.record()
                    end.synchronize()
                    times.append(start.elapsed_time(end))
                timed = times[WARMUP:] if len(times) > WARMUP else times
                run_medians.append(statistics.median(timed))
                all_ms += timed
        except Exception as e:
            print(f"torch_baseline: {name} failed: {e}", file=sys.stderr)
            continue
        # compare.tsv's accuracies and loss are the final weights', as the chapters' summaries
        final = x @ w.T
        train_acc = (final.argmax(dim=1) == y).float().mean().item()
        final_loss = ((final - onehot) ** 2).sum().item() / n
        test_hits = ((xt @ w.T).argmax(dim=1) == yt).float().mean().item()
        rows.append([name, "nvidia", torch.cuda.get_device_name(0), n, a.iters, a.repeats,
                     f"{statistics.median(run_medians):.6f}", f"{min(all_ms):.6f}", f"{max(all_ms):.6f}",
                     f"{min(run_medians):.6f}", f"{max(run_medians):.6f}", "-",
                     f"{train_acc:.6f}", f"{test_hits:.6f}", f"{final_loss:.6f}",
                     datetime.date.today().isoformat()])
    if not rows:
        sys.exit("torch_baseline: no mode ran")
    with open(a.out, "w") as f:
        f.write("\t".join(COLUMNS) + "\n")
        for r in rows:
            f.write("\t".join(str(v) for v in r) + "\n")


if __name__ == "__main__":
    main()
