"""BM25 (Okapi, as rank_bm25's BM25Okapi scores it: k1 1.5, b 0.75, a negative idf floored at a
quarter of the mean idf) of a turn's candidate texts. rank_bm25 counts every word of every
document into a dict of its own; a turn scores up to 2,000 candidates three times, so only the
document frequencies and the query words' counts are taken here, the same numbers in the same
order of summation, hence the same scores to the last bit."""

from __future__ import annotations

import math
from collections import Counter

import numpy as np

K1, B, EPSILON = 1.5, 0.75, 0.25


class Bm25:
    def __init__(self, corpus: list[list[str]]):
        self.corpus = corpus
        self.doc_len = np.array([len(doc) for doc in corpus])
        self.avgdl = int(self.doc_len.sum()) / len(corpus)
        df: Counter[str] = Counter()
        for doc in corpus:
            df.update(set(doc))
        # rank_bm25 sums the idfs in the order the words first appear, and so must this
        idf: dict[str, float] = {}
        total = 0.0
        negative = []
        n = len(corpus)
        for word in dict.fromkeys(w for doc in corpus for w in doc):
            value = idf[word] = math.log(n - df[word] + 0.5) - math.log(df[word] + 0.5)
            total += value
            if value < 0:
                negative.append(word)
        floor = EPSILON * (total / len(idf)) if idf else 0.0
        for word in negative:
            idf[word] = floor
        self.idf = idf

    def scores(self, query: list[str]) -> np.ndarray:
        score = np.zeros(len(self.corpus))
        norm = K1 * (1 - B + B * self.doc_len / self.avgdl)
        for q in query:
            weight = self.idf.get(q) or 0
            if not weight:  # a word no document says adds 0 to every score
                continue
            freq = np.array([doc.count(q) for doc in self.corpus])
            score += weight * (freq * (K1 + 1) / (freq + norm))
        return score
