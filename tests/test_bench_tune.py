"""The training variants of the block-model tuning experiment (bench/tune_blocks.py): weights and labels."""

from __future__ import annotations

import numpy as np

from bench import train_blocks, tune_blocks
from webferret.extract import main_content


def test_overlap_is_the_share_of_trigrams_in_the_truth_and_labels_threshold_it() -> None:
    truth = "the quick brown fox jumps over the lazy dog"
    texts = ["quick brown fox jumps", "brown fox jumps high", "fox and a cat", "lazy dog", "cat"]
    share = train_blocks.overlaps(texts, truth)
    assert share.tolist() == [1.0, 0.5, 0.0, 1.0, 0.0]
    assert train_blocks.labels(texts, truth).tolist() == [True, True, False, True, False]


def test_words_weights_give_every_page_the_same_mass_split_by_words() -> None:
    small = tune_blocks.block_weights("words", np.array([9.0, 0.0]), np.array([True, False]))
    large = tune_blocks.block_weights("words", np.full(40, 4.0), np.zeros(40, bool))
    assert np.isclose(small.sum(), large.sum())
    assert np.isclose(small[0], 10 * small[1])


def test_balance_weights_give_both_classes_of_a_page_the_same_mass() -> None:
    y = np.array([True, False, False, False])
    w = tune_blocks.block_weights("balance", np.array([10.0, 3.0, 5.0, 0.0]), y)
    base = tune_blocks.block_weights("sqrt", np.array([10.0, 3.0, 5.0, 0.0]), y)
    assert np.isclose(w[y].sum(), w[~y].sum())
    assert np.isclose(w.sum(), base.sum())


def test_params_override_reads_ints_and_floats() -> None:
    params = train_blocks.parse_params("l2_regularization=1.0,min_samples_leaf=50,")
    assert params == {"l2_regularization": 1.0, "min_samples_leaf": 50}
    assert isinstance(params["min_samples_leaf"], int)


def test_each_reference_mode_has_its_own_feature_cache() -> None:
    modes = ("full", "fast", "output")
    assert len({train_blocks.features_hash(mode) for mode in modes}) == len(modes)
    assert train_blocks.features_hash() == train_blocks.features_hash(main_content.REFERENCE)


def test_output_text_stands_in_for_trafilaturas_output_run() -> None:
    rows = [{"id": "a", "ref": "fast text", "texts": ["x"]}, {"id": "b", "ref": "b fast", "texts": []}]
    outputs = [{"id": "a", "ref": "full text"}, {"id": "b", "ref": "b full"}]
    mixed = train_blocks.with_output(rows, outputs)
    assert [train_blocks.output_text(r) for r in mixed] == ["full text", "b full"]
    assert [r["ref"] for r in mixed] == ["fast text", "b fast"]  # the features' reference is kept
    assert train_blocks.output_text(rows[0]) == "fast text"
