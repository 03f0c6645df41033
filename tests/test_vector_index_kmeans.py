"""The vector index's k-means (``paperpyramid.db.vector_index._kmeans``) against a plain
reference implementation: the same centroids from the same seed, on float32 vectors and on int8
ones decoded as the index trains on them."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
import pytest

from paperpyramid.db import vector_index
from paperpyramid.db import vectors as db_vectors

DIM = 384
F32 = npt.NDArray[np.float32]


def _clustered(count: int, seed: int, storage: db_vectors.VectorStorage) -> F32:
    rng = np.random.default_rng(seed)
    centres = rng.standard_normal((60, DIM)).astype(np.float32)
    data = centres[rng.integers(0, len(centres), count)] + 0.6 * rng.standard_normal((count, DIM)).astype(np.float32)
    data /= np.linalg.norm(data, axis=1, keepdims=True)
    return db_vectors.decode(db_vectors.encode(data, storage), DIM)


def _reference_kmeans(data: F32, lists: int, rng: np.random.Generator, iterations: int = 12) -> F32:
    """Spherical k-means written plainly: each vector to its nearest centroid by cosine, each
    centroid the normalised sum of its members, in the order the index's k-means draws from ``rng``
    (the first centroids, then a fresh member for each list left empty)."""
    centroids = data[rng.choice(len(data), lists, replace=False)].copy()
    for _ in range(iterations):
        assign = np.argmax(data @ centroids.T, axis=1)
        sums = np.zeros_like(centroids)
        for number in range(lists):
            sums[number] = data[assign == number].sum(axis=0)
        empty = np.linalg.norm(sums, axis=1) == 0
        sums[empty] = data[rng.choice(len(data), int(empty.sum()), replace=False)]
        centroids = (sums / np.linalg.norm(sums, axis=1, keepdims=True)).astype(np.float32)
    return centroids


@pytest.mark.parametrize("storage", ["float32", "int8"])
def test_kmeans_gives_the_reference_centroids(storage: db_vectors.VectorStorage) -> None:
    data = _clustered(64 * 40, seed=3, storage=storage)
    got = vector_index._kmeans(data, 40, np.random.default_rng(7))
    want = _reference_kmeans(data, 40, np.random.default_rng(7))
    assert got.shape == (40, DIM) and got.dtype == np.float32
    np.testing.assert_allclose(got, want, rtol=0, atol=1e-6)
    assert np.allclose(np.linalg.norm(got, axis=1), 1.0, atol=1e-5)


def test_member_sums_of_lists_with_and_without_members() -> None:
    rng = np.random.default_rng(5)
    data = rng.standard_normal((500, DIM)).astype(np.float32)
    assign = rng.choice(np.array([0, 2, 3, 7, 9]), size=len(data))  # lists 1, 4-6, 8 and 10-11 have none
    sums = vector_index._member_sums(data, assign, 12)
    for number in range(12):
        want = data[assign == number].astype(np.float64).sum(axis=0)
        np.testing.assert_allclose(sums[number], want, rtol=1e-5, atol=1e-4)
    assert not sums[[1, 4, 5, 6, 8, 10, 11]].any()
    # the additions of np.add.at, in its order: the same floats
    scattered = np.zeros((12, DIM), dtype=np.float32)
    np.add.at(scattered, assign, data)
    np.testing.assert_array_equal(sums, scattered)
