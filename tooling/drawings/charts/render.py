"""Renders the chart references of the drawing vocabulary with matplotlib (Debian python3-matplotlib).

    /usr/bin/python3 tooling/drawings/charts/render.py OUT_DIR COUNT SEED

Writes COUNT PNGs named NNNN-KIND.png, cycling through KINDS, each in a random built-in style, size
and resolution, with random data, words, legends and grids, so the references cover how charts
look rather than one house style. Deterministic for a given matplotlib version and seed.
"""
import os
import random
import sys

import matplotlib

matplotlib.use('Agg')
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

WORDS = (
    'sales revenue growth year month temperature pressure count share users time speed value index '
    'rate cost profit north south east west alpha beta gamma delta model trial group sample'
).split()
STYLES = [
    'default', 'ggplot', 'bmh', 'fivethirtyeight', 'grayscale', 'seaborn-v0_8', 'seaborn-v0_8-whitegrid',
    'seaborn-v0_8-darkgrid', 'classic', 'Solarize_Light2', 'tableau-colorblind10', 'seaborn-v0_8-pastel',
]
# The file name's kind is the row's kind in the table (tooling/drawings/charts-table.ts maps it to a word).
KINDS = ['bar', 'barh', 'line', 'scatter', 'hist', 'pie', 'area', 'box', 'step', 'groupbar', 'multiline']


def main(out: str, count: int, seed: int) -> None:
    rng = random.Random(seed)
    np.random.seed(seed)
    styles = [s for s in STYLES if s in plt.style.available]

    def words(k: int) -> str:
        return ' '.join(rng.choice(WORDS) for _ in range(k)).capitalize()

    os.makedirs(out, exist_ok=True)
    for i in range(count):
        kind = KINDS[i % len(KINDS)]
        with plt.style.context(rng.choice(styles)):
            w = rng.choice([4, 5, 6, 7, 8])
            fig, ax = plt.subplots(figsize=(w, w * rng.choice([0.5, 0.6, 0.75, 0.8, 1.0])), dpi=rng.choice([72, 100, 120]))
            m = rng.randint(3, 12)
            x = np.arange(m)
            y = np.abs(np.random.randn(m)).cumsum() + rng.random() * 5
            if kind == 'bar':
                ax.bar([words(1)[:6] + str(j) for j in range(m)], y)
            elif kind == 'barh':
                ax.barh([f'{words(1)} {j}' for j in range(m)], y)
            elif kind == 'line':
                t = np.linspace(0, 10, 50)
                ax.plot(t, np.sin(t * rng.randint(1, 6) / 10) * rng.random() * 10 + np.random.randn(50) * 0.3, marker=rng.choice(['', 'o', '.']))
            elif kind == 'multiline':
                for _ in range(rng.randint(2, 4)):
                    ax.plot(x, np.random.randn(m).cumsum(), label=words(1))
                ax.legend()
            elif kind == 'scatter':
                n = rng.randint(30, 300)
                ax.scatter(*np.random.randn(2, n), s=rng.choice([5, 15, 30]), alpha=rng.choice([0.5, 0.8, 1.0]))
            elif kind == 'hist':
                ax.hist(np.random.randn(rng.randint(200, 2000)) * (0.5 + rng.random() * 3), bins=rng.randint(8, 40))
            elif kind == 'pie':
                n = rng.randint(3, 7)
                labels = [words(1) for _ in range(n)] if rng.random() < 0.6 else None
                ax.pie(np.random.rand(n) + 0.1, labels=labels, autopct=rng.choice([None, '%1.0f%%']))
            elif kind == 'area':
                ax.stackplot(x, np.abs(np.random.randn(3, m)).cumsum(axis=1))
            elif kind == 'box':
                ax.boxplot([np.random.randn(50) + k for k in range(rng.randint(2, 6))])
            elif kind == 'step':
                ax.step(x, y)
            elif kind == 'groupbar':
                for k in range(rng.randint(2, 3)):
                    ax.bar(x + k * 0.3, np.abs(np.random.randn(m)) + 1, width=0.3, label=words(1))
                ax.legend()
            if rng.random() < 0.7:
                ax.set_title(words(rng.randint(2, 4)))
            if kind != 'pie' and rng.random() < 0.7:
                ax.set_xlabel(words(1))
                ax.set_ylabel(words(1))
            if kind != 'pie' and rng.random() < 0.3:
                ax.grid(True)
            fig.tight_layout()
            fig.savefig(os.path.join(out, f'{i:04d}-{kind}.png'))
            plt.close(fig)


if __name__ == '__main__':
    main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]))
