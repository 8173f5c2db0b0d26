"""The lexical tokenizer's stopword list is bm25s' (copied so a query need not import bm25s and scipy)."""

from synthesis.lexical import STOPWORDS_EN


def test_stopwords_are_bm25s_english_list():
    from bm25s.stopwords import STOPWORDS_EN as upstream

    assert STOPWORDS_EN == frozenset(upstream)
