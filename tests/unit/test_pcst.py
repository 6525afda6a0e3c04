"""PCST on small known graphs: the solver's tree, the mapping back, the cap."""

from engine.stages.retrieve import pcst


def test_path_with_prizes_at_both_ends_returns_the_whole_path():
    edges = [("a", "b", 0.0), ("b", "c", 0.0), ("c", "d", 0.0)]
    sub = pcst.solve({"a": 5.0, "d": 5.0}, edges)
    assert sorted(sub.nodes) == ["a", "b", "c", "d"]
    assert sub.edges == [0, 1, 2]


def test_costly_branch_without_prize_is_pruned():
    # b-e is as cheap as any edge but e's prize cannot pay for it; the long branch to f costs 4.
    edges = [("a", "b", 0.0), ("b", "c", 0.0), ("b", "e", 0.0),
             ("c", "x1", 0.0), ("x1", "x2", 0.0), ("x2", "x3", 0.0), ("x3", "f", 0.0)]
    sub = pcst.solve({"a": 4.0, "c": 4.0, "e": 0.2, "f": 1.0}, edges)
    assert sorted(sub.nodes) == ["a", "b", "c"]
    assert sub.edges == [0, 1]


def test_prized_edge_is_taken_for_its_own_prize_with_both_ends():
    # No node prize at all: the edge's virtual node pays for its two halves.
    sub = pcst.solve({}, [("a", "b", 3.0), ("b", "c", 0.0)])
    assert sub.edges == [0]
    assert sorted(sub.nodes) == ["a", "b"]


def test_bridging_node_without_prize_joins_two_prized_edges():
    edges = [("p", "hub", 2.5), ("hub", "q", 2.5), ("hub", "r", 0.0)]
    sub = pcst.solve({}, edges)
    assert sub.edges == [0, 1]
    assert sorted(sub.nodes) == ["hub", "p", "q"]


def test_nothing_prized_gives_an_empty_subgraph():
    assert pcst.solve({}, [("a", "b", 0.0)]).nodes == []


def test_cap_drops_the_cheapest_leaf_edges_and_stays_connected():
    # A star around h: 6 prized edges; keep the 3 best.
    edges = [("h", f"n{i}", float(p)) for i, p in enumerate([5, 1, 4, 2, 6, 3])]
    sub = pcst.solve({}, edges)
    assert len(sub.edges) == 6
    capped = pcst.cap_subgraph(sub, edges, 3)
    assert capped.edges == [0, 2, 4]
    assert sorted(capped.nodes) == ["h", "n0", "n2", "n4"]


def test_rank_and_relevance_prizes():
    assert pcst.rank_prizes([0.1, 0.9, 0.5, 0.7], 3) == [0.0, 3.0, 1.0, 2.0]
    assert pcst.relevance_prizes([0.2, 0.6, 0.9], 0.5, 2.0) == [0.0, 1.2, 1.8]


def test_adaptive_prizes_fall_back_to_ranks_when_every_probability_is_low():
    # A KG the model finds hard: nothing reaches the threshold, yet the best k still get prizes.
    low = [0.14, 0.23, 0.05, 0.2, 0.18]
    assert pcst.adaptive_prizes(low, 0.6, 3.0, k=3) == pcst.rank_prizes(low, 3) == [0.0, 3.0, 0.0, 2.0, 1.0]


def test_name_records_get_no_free_entry():
    # A person with three facts: the given name (0.01) must not enter for being among the top 3,
    # nor take a rank prize when every score is low; on its own score it still may.
    noise = [False, False, True]
    assert pcst.adaptive_prizes([0.9, 0.5, 0.01], 0.7, 2.0, k=5, top=3, no_entry=noise) == [1.8, 1.0, 0.0]
    assert pcst.adaptive_prizes([0.2, 0.1, 0.3], 0.7, 2.0, k=2, no_entry=noise) == [2.0, 1.0, 0.0]
    assert pcst.adaptive_prizes([0.5, 0.1, 0.9], 0.7, 2.0, k=5, top=1, no_entry=noise) == [1.0, 0.0, 1.8]


def test_adaptive_prizes_cut_relative_to_the_best_and_let_the_top_enter():
    # Threshold 0.7, best 0.9: with ratio 0.5 the 0.5 fact (second part of a compound question)
    # gets its prize; 0.3 does not.
    assert pcst.adaptive_prizes([0.9, 0.5, 0.3], 0.7, 2.0, k=5, ratio=0.5) == [1.8, 1.0, 0.0]
    assert pcst.adaptive_prizes([0.9, 0.5, 0.3], 0.7, 2.0, k=5, ratio=1.0) == [1.8, 0.0, 0.0]
    # `top`: the best two always pay at least one edge's cost.
    assert pcst.adaptive_prizes([0.9, 0.5, 0.3], 0.7, 2.0, k=5, top=2) == [1.8, 1.0, 0.0]
    assert pcst.adaptive_prizes([], 0.7, 2.0, k=5) == []
    # `gate`: of the best two only those within 0.3 × best may enter on the entry prize.
    assert pcst.adaptive_prizes([0.9, 0.5, 0.2], 0.7, 2.0, k=5, top=3, gate=0.3) == [1.8, 1.0, 0.0]
    assert pcst.adaptive_prizes([0.9, 0.5, 0.2], 0.7, 2.0, k=5, top=3, gate=0.0) == [1.8, 1.0, 1.0]
    # `ungated`: a marked fact enters however far behind it scores.
    assert pcst.adaptive_prizes([0.9, 0.5, 0.2], 0.7, 2.0, k=5, top=3, gate=0.3,
                                ungated=[False, False, True]) == [1.8, 1.0, 1.0]
