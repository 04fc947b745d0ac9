"""The OpenSpiel games: OpenSpiel's own tests and bots, and the sampler behind resample_from_infostate."""

from __future__ import annotations

import pytest

np = pytest.importorskip("numpy")
pyspiel = pytest.importorskip("pyspiel")

import goldfields.research.openspiel_games as og  # noqa: E402

SHORT_DIGGING = "python_goldfields_digging(players=2,single_hand=True)"
SHORT_DIGGER = "python_goldfields_digger(players=2,max_turns=4)"


def _play_random(game, seed, stop=None):
    """A state reached by random play (chance by its probabilities), stopped after ``stop`` decisions."""
    rs = np.random.RandomState(seed)
    state = game.new_initial_state()
    decisions = 0
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rs.choice(actions, p=probs)))
            continue
        if stop is not None and decisions >= stop:
            break
        legal = state.legal_actions()
        state.apply_action(int(legal[rs.randint(len(legal))]))
        decisions += 1
    return state


def test_registered_types():
    for name, players in ((og.DIGGING_NAME, (2, 4)), (og.DIGGER_NAME, (2, 5))):
        game = pyspiel.load_game(name)
        t = game.get_type()
        assert t.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
        assert t.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
        assert t.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
        assert t.utility == pyspiel.GameType.Utility.CONSTANT_SUM
        assert t.reward_model == pyspiel.GameType.RewardModel.TERMINAL
        assert (t.min_num_players, t.max_num_players) == players
        # The string is perfect recall; the tensor is the observation's summary, not a history.
        assert t.provides_information_state_string and not t.provides_information_state_tensor
        assert t.provides_observation_string and t.provides_observation_tensor
    assert pyspiel.load_game("python_goldfields_digging").utility_sum() == 2.0  # partnership
    assert pyspiel.load_game("python_goldfields_digging(players=3)").utility_sum() == 1.0
    assert pyspiel.load_game(og.DIGGING_NAME).max_chance_outcomes() == 22
    assert pyspiel.load_game(og.DIGGER_NAME).max_chance_outcomes() == 252


@pytest.mark.parametrize(
    "name",
    [
        SHORT_DIGGING,
        "python_goldfields_digging(players=4,single_hand=True)",
        "python_goldfields_digging(players=3)",
        "python_goldfields_digger(players=3,max_turns=12)",
        "python_goldfields_digger(players=2,crates=black,knock_probability=0.25,max_turns=8)",
    ],
)
def test_random_sim_test(name):
    pyspiel.random_sim_test(pyspiel.load_game(name), num_sims=2, serialize=True, verbose=False)


def test_full_partnership_game_random_sim():
    pyspiel.random_sim_test(pyspiel.load_game("python_goldfields_digging"), num_sims=1, serialize=False, verbose=False)


def test_deal_is_card_by_card_chance():
    game = pyspiel.load_game(SHORT_DIGGING)
    state = game.new_initial_state()
    assert state.is_chance_node()
    outcomes = state.chance_outcomes()
    assert sum(p for _, p in outcomes) == pytest.approx(1.0)
    assert dict(outcomes)[0] == pytest.approx(3 / 48)  # three gold mines among 48 cards
    dealt = 0
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
        dealt += 1
    assert dealt == 48 and state.current_player() == 0


@pytest.mark.parametrize("name", [SHORT_DIGGING, "python_goldfields_digging(players=4,single_hand=True)", SHORT_DIGGER])
def test_resample_from_infostate_is_consistent(name):
    game = pyspiel.load_game(name)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    changed = 0
    for seed in range(6):
        state = _play_random(game, seed, stop=5 + 7 * seed)
        if state.is_terminal() or state.is_chance_node():
            continue
        player = state.current_player()
        for _ in range(3):
            sample = state.resample_from_infostate(player, sampler)
            assert sample.information_state_string(player) == state.information_state_string(player)
            assert sample.observation_string(player) == state.observation_string(player)
            assert sample.information_state_tensor(player) == state.information_state_tensor(player)
            assert sample.observation_tensor(player) == state.observation_tensor(player)
            assert sample.legal_actions() == state.legal_actions()
            assert sample.current_player() == player
            if str(sample) != str(state):
                changed += 1
            # The sample plays on.
            finish = sample.clone()
            while not finish.is_terminal():
                if finish.is_chance_node():
                    finish.apply_action(finish.chance_outcomes()[0][0])
                else:
                    finish.apply_action(finish.legal_actions()[0])
    if "digging" in name:
        assert changed > 0  # hidden cards really were dealt again


def test_resampled_digging_state_keeps_no_true_history():
    game = pyspiel.load_game(SHORT_DIGGING)
    state = _play_random(game, 3, stop=6)
    sample = state.resample_from_infostate(state.current_player(), pyspiel.UniformProbabilitySampler(0.0, 1.0))
    assert state.history() and sample.history() == []


def test_digger_clock_is_in_other_seats_strings_only():
    game = pyspiel.load_game(SHORT_DIGGER)
    state = _play_random(game, 1, stop=3)
    while state.is_chance_node() or state.is_terminal():
        state = _play_random(game, 2, stop=4)
    digger = state.current_player()
    assert '"elapsed":null' in state.observation_string(digger)
    assert '"elapsed":null' not in state.observation_string(1 - digger)
    public = pyspiel.IIGObservationType(
        perfect_recall=False, public_info=True, private_info=pyspiel.PrivateInfoType.NONE
    )
    observer = game.make_py_observer(public)
    assert '"elapsed":null' in observer.string_from(state, 1 - digger)


def _play_with_bots(game, bots, seed):
    rs = np.random.RandomState(seed)
    state = game.new_initial_state()
    decisions = 0
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rs.choice(actions, p=probs)))
            continue
        action = bots[state.current_player()].step(state)
        assert action in state.legal_actions()
        state.apply_action(int(action))
        decisions += 1
    return state.returns(), decisions


@pytest.mark.parametrize("name", [SHORT_DIGGING, SHORT_DIGGER])
def test_openspiel_ismcts_plays_full_games(name):
    from open_spiel.python.algorithms import ismcts, mcts

    game = pyspiel.load_game(name)
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(0))
    bots = [
        ismcts.ISMCTSBot(game, evaluator, 2.0, 8, random_state=np.random.RandomState(p))
        for p in range(game.num_players())
    ]
    returns, decisions = _play_with_bots(game, bots, seed=0)
    assert sum(returns) == pytest.approx(game.utility_sum()) and decisions > 0


@pytest.mark.parametrize("name", [SHORT_DIGGING, SHORT_DIGGER])
def test_openspiel_mcts_plays_full_games(name):
    from open_spiel.python.algorithms import mcts

    game = pyspiel.load_game(name)
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(0))
    bots = [
        og.DeterminizedMCTSBot(mcts.MCTSBot(game, 2.0, 8, evaluator, random_state=np.random.RandomState(p)), seed=p)
        for p in range(game.num_players())
    ]
    returns, decisions = _play_with_bots(game, bots, seed=1)
    assert sum(returns) == pytest.approx(game.utility_sum()) and decisions > 0
    if "digger" in name:
        # Digger's only hidden information is a clock that follows from the history: plain MCTS plays too.
        plain = [mcts.MCTSBot(game, 2.0, 8, evaluator, random_state=np.random.RandomState(p)) for p in range(2)]
        returns, _ = _play_with_bots(game, plain, seed=2)
        assert sum(returns) == pytest.approx(1.0)


def test_observer_tensor_matches_encoding_and_refuses_all_players():
    from goldfields.research.encoding import DIGGING

    game = pyspiel.load_game(SHORT_DIGGING)
    state = _play_random(game, 0, stop=4)
    obs = pyspiel.IIGObservationType(perfect_recall=False)
    observer = game.make_py_observer(obs)
    observer.set_from(state, 0)
    assert observer.tensor.shape == (DIGGING.size,)
    assert set(observer.dict) == {p.name for p in DIGGING.pieces}
    assert list(observer.tensor) == pytest.approx(state.observation_tensor(0))
    with pytest.raises(ValueError):
        game.make_py_observer(
            pyspiel.IIGObservationType(
                perfect_recall=False, public_info=True, private_info=pyspiel.PrivateInfoType.ALL_PLAYERS
            )
        )


def test_the_shipped_games_keep_their_openspiel_names_and_register_returns_them():
    from goldfields.research.tables import DIGGER, DIGGING

    assert og.DIGGING_NAME == "python_goldfields_digging" and og.DIGGER_NAME == "python_goldfields_digger"
    assert og.register(DIGGING) == og.DIGGING_NAME and og.register(DIGGER) == og.DIGGER_NAME
    assert isinstance(pyspiel.load_game(og.register(DIGGING), {"players": 2}), og.DiggingGame)


@pytest.mark.parametrize(
    "name",
    [
        "python_goldfields_digging(players=2,single_hand=True,max_moves=30)",
        "python_goldfields_digging(players=3,max_moves=200)",
        "python_goldfields_digging(players=4,max_moves=300)",
        # Other deals than D1's 6: a smaller hand, a longer pile and a longer hand; a bigger hand,
        # a shorter pile and more deals under the same cap.
        "python_goldfields_digging(players=2,single_hand=True,hand_size=1)",
        "python_goldfields_digging(players=4,max_moves=200,hand_size=12)",
        "python_goldfields_digger(players=3,max_turns=6)",
    ],
)
def test_defect_1_the_bounds_cover_every_chance_node_and_decision(name):
    game = pyspiel.load_game(name)
    # The deal alone is one chance node per card: 30 decisions must not mean 30 chance nodes.
    if "max_moves=30" in name:
        assert game.max_chance_nodes_in_history() >= 48
    for seed in range(6):
        rs = np.random.RandomState(seed)
        state = game.new_initial_state()
        chance = decisions = 0
        while not state.is_terminal():
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(int(rs.choice(actions, p=probs)))
                chance += 1
            else:
                legal = state.legal_actions()
                state.apply_action(int(legal[rs.randint(len(legal))]))
                decisions += 1
        assert chance <= game.max_chance_nodes_in_history(), (chance, seed)
        assert decisions <= game.max_game_length()
        assert len(state.history()) <= game.max_history_length()


@pytest.mark.parametrize("name", [SHORT_DIGGING, SHORT_DIGGER])
def test_defect_2_openspiel_generate_playthrough_runs(name):
    from open_spiel.python.algorithms import generate_playthrough

    text = generate_playthrough.playthrough(name, action_sequence=None, alsologtostdout=False)
    # It asks for every observer kind, the private-only one included.
    assert "PrivateObservationString" in text and "InformationStateString" in text
    assert "Returns() = " in text


def _deal(game, deck_codes):
    """A 2-player hand dealt from ``deck_codes`` (top card first), through OpenSpiel's chance nodes."""
    state = game.new_initial_state()
    for code in deck_codes:
        assert state.is_chance_node()
        state.apply_action(code)
    return state


def test_defect_3_the_information_state_is_perfect_recall():
    from goldfields.digging.cards import CODE_OF

    game = pyspiel.load_game(SHORT_DIGGING)
    deck = sorted(game.deck)
    hands, pile = deck[:12], deck[12:]
    # Two deals that differ only in the order of the first and third cards of the pile: the
    # first player draws gold then silver in one, silver then gold in the other.
    gold, silver = CODE_OF["G"], CODE_OF["S"]
    rest = list(pile)
    rest.remove(gold)
    rest.remove(silver)
    one = [*hands, gold, rest[0], silver, *rest[1:]]
    two = [*hands, silver, rest[0], gold, *rest[1:]]
    a, b = _deal(game, one), _deal(game, two)
    first = a.current_player()
    assert b.current_player() == first
    draw_id = a.engine_state().string_to_action("draw")
    earlier = {}
    for state, key in ((a, "one"), (b, "two")):
        state.apply_action(draw_id)  # first player draws
        earlier[key] = state.information_state_string(first)
        state.apply_action(draw_id)  # the other player draws
        state.apply_action(draw_id)  # first player draws again: now holding both
    # The two first draws gave different information states...
    assert earlier["one"] != earlier["two"]
    # ...so the later ones must differ too (perfect recall), though what the seat sees now is the same.
    assert a.observation_string(first) == b.observation_string(first)
    assert a.information_state_string(first) != b.information_state_string(first)
    # The other seat saw two draws it cannot tell apart, in both deals: one information state.
    other = 1 - first
    assert a.information_state_string(other) == b.information_state_string(other)


def test_a_digger_sample_is_the_state_itself_for_every_seat():
    # Under the jitter-free clock the history fixes the hourglass: a digger's sample must carry the
    # time that has run, as the other seats see it, not a fresh hourglass.
    game = pyspiel.load_game(SHORT_DIGGER)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    state = game.new_initial_state()
    while state.is_chance_node() or state.current_player() != 0 or state.engine_state().elapsed == 0:
        if state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
        else:
            state.apply_action(state.legal_actions()[0])
    sample = state.resample_from_infostate(0, sampler)
    assert sample.engine_state().elapsed == state.engine_state().elapsed > 0
    assert sample.history() == state.history()
    for seat in range(game.num_players()):
        assert sample.observation_string(seat) == state.observation_string(seat)
    assert sample.serialize() == state.serialize()


def test_a_cap_of_0_means_the_automatic_bound_in_both_games():
    # Digging's max_moves=0 and Digger's max_turns=0 alike: the adapter's own bound, never an error.
    digger = pyspiel.load_game("python_goldfields_digger(players=2,max_turns=0)")
    assert digger.spec.max_turns == og.DEFAULT_MAX_TURNS
    assert digger.max_game_length() == pyspiel.load_game("python_goldfields_digger(players=2)").max_game_length()
    assert pyspiel.load_game("python_goldfields_digging(players=4,max_moves=0)").max_game_length() > 0
    with pytest.raises(ValueError, match="max_turns must be positive, or 0 for the default 300"):
        pyspiel.load_game("python_goldfields_digger(players=2,max_turns=-1)")


def test_knocked_turns_count_toward_max_turns():
    # G5: a steal may be followed by a knock, a chance node that ends the turn. Every turn a knock
    # ends counts toward the cap, or a player who steals at every chance is never cut.
    game = pyspiel.load_game("python_goldfields_digger(players=2,crates=black,knock_probability=1.0,max_turns=10)")
    rs = np.random.RandomState(4)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rs.choice(actions, p=probs)))
            continue
        legal = state.legal_actions()
        by_verb = {state.action_to_string(a).split()[0]: a for a in legal}
        # Take and bank gems, so that there are some to steal.
        state.apply_action(by_verb.get("steal", by_verb.get("take", by_verb.get("stop", legal[0]))))
    assert "|knock" in state.public_history()
    assert state.engine_state().turn == 10 and '"truncated":true' in str(state)


@pytest.mark.parametrize("name", ["python_goldfields_digging(players=4,single_hand=True)", SHORT_DIGGER])
def test_the_private_only_tensor_holds_the_private_pieces_alone_for_every_seat(name):
    # The spectator's vector is drawn from seat 0, so a comparison with it would pass every
    # seat-relative piece of any other seat off as private.
    from goldfields.research.encoding import encoding_for

    game = pyspiel.load_game(name)
    private_only = pyspiel.IIGObservationType(
        perfect_recall=False, public_info=False, private_info=pyspiel.PrivateInfoType.SINGLE_PLAYER
    )
    observer = game.make_py_observer(private_only)
    encoding = encoding_for(game.get_type().short_name.removeprefix("python_goldfields_"))
    state = _play_random(game, 5, stop=9)
    assert not state.is_terminal()
    for seat in range(game.num_players()):
        observer.set_from(state, seat)
        full = encoding.encode_state(state.engine_state(), seat)
        kept = [p.name for p in encoding.pieces if np.any(observer.tensor[encoding.slices[p.name]])]
        assert kept and set(kept) <= {p.name for p in encoding.pieces if p.private}, (seat, kept)
        for piece in encoding.pieces:
            where = encoding.slices[piece.name]
            assert np.array_equal(observer.tensor[where], full[where] if piece.private else 0 * full[where])


def _snapshot(state):
    return str(state), state.history(), state.returns(), state.is_terminal()


@pytest.mark.parametrize(
    ("name", "rule", "why"),
    [
        ("python_goldfields_digging(players=2,max_moves=40)", "end", "cut after max_moves=40 decisions"),
        (SHORT_DIGGING, "end", "single_hand"),
        ("python_goldfields_digging(players=2)", "D9", "the game is over"),
        ("python_goldfields_digger(players=2,max_turns=4)", "end", "cut after max_turns=4 turns"),
        ("python_goldfields_digger(players=2,max_turns=300)", "G6", "the game is over"),
    ],
)
def test_a_finished_game_refuses_every_action_and_stays_as_it_was(name, rule, why):
    game = pyspiel.load_game(name)
    for seed in range(4):
        state = _play_random(game, seed)
        assert state.is_terminal()
        before = _snapshot(state)
        engine = state.engine_state()
        # What the engine would still take (a game cut by a cap is not over for the engine), a
        # chance outcome, and ids at either end.
        tried = {0, 1, game.num_distinct_actions() - 1}
        if not engine.is_terminal() and not engine.is_chance_node():
            tried |= set(engine.legal_actions())
        for action in sorted(tried):
            with pytest.raises(ValueError, match=f"^{rule}: .*{why}") as refused:
                state.apply_action(action)
            assert refused.value.rule == rule
            assert _snapshot(state) == before


def test_a_cut_digging_game_keeps_its_returns_whatever_is_applied_after_it():
    # The audit's case: a move applied to a game cut at max_moves changed who had won.
    game = pyspiel.load_game("python_goldfields_digging(players=2,max_moves=40)")
    for seed in range(20):
        state = _play_random(game, seed)
        returns = state.returns()
        engine = state.engine_state()
        for action in [] if engine.is_terminal() or engine.is_chance_node() else engine.legal_actions():
            with pytest.raises(ValueError, match=r"^end: the game is over"):
                state.apply_action(action)
        assert state.returns() == returns


def test_the_deal_refuses_a_card_with_no_copy_left_and_an_id_that_is_no_card():
    state = pyspiel.load_game(SHORT_DIGGING).new_initial_state()
    gg = og.CODES.index("GG")  # one copy in the deck
    state.apply_action(gg)
    assert gg not in dict(state.chance_outcomes())
    before = _snapshot(state), state.chance_outcomes()
    with pytest.raises(ValueError, match=r"^D1: deal GG: every copy of it in the deck is dealt already"):
        state.apply_action(gg)
    for action in (-2, og.NUM_CODES, 99):  # -1 is OpenSpiel's kInvalidAction, refused before us
        with pytest.raises(ValueError, match=f"^D1: a card of the deal is a card code from 0 to 21, not {action}$"):
            state.apply_action(action)
    assert (_snapshot(state), state.chance_outcomes()) == before
    assert all(p > 0 for _, p in state.chance_outcomes())
    assert sum(p for _, p in state.chance_outcomes()) == pytest.approx(1.0)


def _digger_knock_node(knock_probability):
    """A Digger state at a knock chance node (G5), reached by random play."""
    game = pyspiel.load_game(f"python_goldfields_digger(players=3,knock_probability={knock_probability},max_turns=300)")
    for seed in range(50):
        rs = np.random.RandomState(seed)
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                if len(state.engine_state().chance_outcomes()) == 2:
                    return state
                actions, probs = zip(*outcomes, strict=True)
                state.apply_action(int(rs.choice(actions, p=probs)))
            else:
                legal = state.legal_actions()
                state.apply_action(int(legal[rs.randint(len(legal))]))
    raise AssertionError("no steal in 50 random games")


def test_digger_chance_nodes_refuse_what_they_cannot_produce():
    roll = pyspiel.load_game("python_goldfields_digger(players=2,max_turns=4)").new_initial_state()
    roll.apply_action(roll.legal_actions()[0])  # the first roll: its dice are in the air
    assert roll.is_chance_node()
    before = _snapshot(roll)
    for action in (-2, 252, 1000):
        with pytest.raises(ValueError, match=f"^G2: a roll's outcome is an id from 0 to 251, not {action}$"):
            roll.apply_action(action)
    assert _snapshot(roll) == before

    knock = _digger_knock_node(0.25)
    assert knock.chance_outcomes() == [(0, 0.75), (1, 0.25)]
    before = _snapshot(knock)
    for action in (2, 7, -2):  # once any non-zero id counted as a knock
        refusal = rf"^G5: a knock's outcome is 0 \(safe\) or 1 \(knocked\), not {action}$"
        with pytest.raises(ValueError, match=refusal):
            knock.apply_action(action)
    assert _snapshot(knock) == before

    certain = _digger_knock_node(1.0)
    assert certain.chance_outcomes() == [(1, 1.0)]
    before = _snapshot(certain)
    with pytest.raises(ValueError, match=r"^G5: safe cannot happen: its probability is 0"):
        certain.apply_action(0)
    assert _snapshot(certain) == before
    certain.apply_action(1)  # the one outcome listed is taken


def test_a_player_cannot_call_the_hourglass_on_itself() -> None:
    from goldfields.core.game import RuleError
    from goldfields.digger import ROLL, TIMEOUT

    state = pyspiel.load_game("python_goldfields_digger").new_initial_state()
    rolled = False
    while state.is_chance_node() or not rolled:  # the first roll lands: the hourglass runs
        if state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
        else:
            state.apply_action(ROLL)
            rolled = True
    assert TIMEOUT not in state.legal_actions()
    before = state.serialize()
    with pytest.raises(RuleError, match=r"G3: timeout is the clock's to call"):
        state.apply_action(TIMEOUT)
    assert state.serialize() == before


def test_the_rule_options_are_openspiel_parameters():
    full = pyspiel.load_game("python_goldfields_digging(players=2,full_deck=True)")
    assert len(full.deck) == 60 and len(pyspiel.load_game("python_goldfields_digging(players=2)").deck) == 48
    assert full.spec.options.full_deck
    short = pyspiel.load_game("python_goldfields_digging(players=2,target=20)")
    assert short.spec.options.target == 20
    pyspiel.random_sim_test(short, num_sims=2, serialize=False, verbose=False)
    big = pyspiel.load_game("python_goldfields_digging(players=3,hand_size=9)")
    assert big.spec.options.hand_size == 9
    pyspiel.random_sim_test(big, num_sims=2, serialize=False, verbose=False)
    digger = pyspiel.load_game("python_goldfields_digger(time_limit=20.0,stack_seconds=1.0,knock_probability=0.1)")
    options = digger.new_initial_state()._core.engine.options
    assert (options.time_limit, options.stack_seconds, options.knock_probability) == (20.0, 1.0, 0.1)
    pyspiel.random_sim_test(digger, num_sims=2, serialize=False, verbose=False)


def test_a_negative_max_moves_is_refused_in_openspiels_words():
    with pytest.raises(ValueError, match=r"max_moves must be positive, or 0 for a cap chosen from the game's length"):
        pyspiel.load_game("python_goldfields_digging(max_moves=-1)")


def test_digger_crate_values_is_an_openspiel_parameter_written_without_commas():
    name = "python_goldfields_digger(players=2,crates=black,crate_values=white:Y2R3G4W6;A:Y1R3G5W9)"
    game = pyspiel.load_game(name)
    engine = game.new_initial_state()._core.engine
    assert engine.values[0] == (0, 1, 3, 5, 9)  # seat 0 plays black card A, as given
    assert pyspiel.load_game(str(game)).spec == game.spec  # the game's name loads it again
    # The JSON of docs/digger.md, where the parameters are a dict, is written back without commas.
    as_json = pyspiel.load_game("python_goldfields_digger",
                                {"players": 2, "crates": "black",
                                 "crate_values": '{"black": {"A": {"Y": 1, "R": 3, "G": 5, "W": 9}}}'})  # fmt: skip
    assert "crate_values=A:Y1R3G5W9," in str(as_json)
    assert as_json.new_initial_state()._core.engine.values[0] == (0, 1, 3, 5, 9)
    pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("white:Y2R3G4", r"crate card white must give exactly Y, R, G and W: missing W"),
        ("white:Y2R3G4W6B1", r"unknown B \(blue always scores 0\)"),
        ("A:Y1R1G1W1;A:Y1R1G1W1", r"card A is given twice"),
        ("white:Y2Y3R3G4W6", r"card white gives Y twice"),
        ("white=2", r"write each card as white:Y2R3G4W6"),
        ("{white", r"crate_values: not JSON"),
    ],
)
def test_a_malformed_crate_values_parameter_is_refused_naming_the_card(text, why):
    with pytest.raises(ValueError, match=why):
        pyspiel.load_game("python_goldfields_digger", {"crate_values": text})


@pytest.mark.parametrize(
    "name",
    [
        "python_goldfields_digging(players=3,full_deck=True)",
        "python_goldfields_digger(players=2,crate_values=white:Y2R3G4W9)",
    ],
)
def test_a_game_comes_back_whole_from_pickle(name):
    # As multiprocessing and Ray send it to another process.
    import pickle

    game = pyspiel.load_game(name)
    again = pickle.loads(pickle.dumps(game))
    assert str(again) == str(game) and again.spec == game.spec
    pyspiel.random_sim_test(again, num_sims=1, serialize=False, verbose=False)


def test_a_rolls_outcomes_are_the_callers_to_change():
    """OpenSpiel's own tests sort and pop the list a state returns: it must be a fresh one, not
    the 252 roll outcomes every Digger state shares."""
    game = pyspiel.load_game("python_goldfields_digger(players=2,max_turns=4)")
    roll = game.new_initial_state()
    roll.apply_action(roll.legal_actions()[0])
    outcomes = roll.chance_outcomes()
    outcomes.pop()
    again = game.new_initial_state()
    again.apply_action(again.legal_actions()[0])
    assert len(again.chance_outcomes()) == 252
    assert abs(sum(p for _, p in again.chance_outcomes()) - 1.0) < 1e-9
