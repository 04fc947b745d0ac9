"""Information-set Monte Carlo tree search (single observer, with partially observable moves).

One tree is grown for the seat to move (the *observer*). Each iteration

1. takes a determinisation: a full state drawn with ``view.sample(rng)`` among
   those the observer cannot tell apart (a drawn state is reused for ``reuse``
   consecutive iterations, cloned each time, because drawing costs several
   times more than cloning);
2. descends the tree. At each node only the children whose actions are legal in
   this determinisation compete; a child is picked by UCB1 with *availability*
   counts (how often it was legal when its parent was visited) in place of the
   parent's visits, as in Cowling, Powley & Whitehouse (2012). Chance nodes
   met on the way are sampled (open loop);
3. adds one child, then plays a short rollout with the game's fast policy and
   evaluates where it stops (see :class:`SearchGame`);
4. backs up a value per seat; a node adds the value of the seat that chose
   the action leading to it (in the partnership game both partners have the
   team's value, so they cooperate).

Moves are keyed by what the observer sees of them: an opponent's pass in
Digging hides its card, so all such passes share one key and, when that key
is chosen, one of the legal passes is picked at random (SO-ISMCTS + POM).

The iteration count is the unit of the budget; a budget in seconds is checked
with the budget's clock after every iteration.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import ClassVar

from ..core import registry
from ..core.definition import load
from ..core.game import CHANCE, GameState, SeatView
from .base import Bot, Budget, Clock, legal_actions_of, networks, param


class SearchGame:
    """How ISMCTS plays a game: the defaults work for any GameState.

    A game can do better by overriding: a fast way to apply a known-legal
    action, a rollout policy and evaluation, and the observer's keys for moves.
    """

    stop_at_chance = False
    """Evaluate at a chance node instead of sampling through it (Digging: the end of a hand)."""

    has_horizon = False
    """Whether :meth:`past_horizon` should be asked at every step of the descent."""

    def past_horizon(self, state: GameState) -> bool:
        """The descent stops here and the position is evaluated (Digger: the turn is over)."""
        return False

    def key_map(self, state: GameState, observer: int, actor: int) -> Sequence[int] | None:
        """``keys[action]`` as the observer sees ``actor``'s move; ``None``: the action id itself."""
        return None

    def root_moves(self, view: SeatView, legal: Sequence[int]) -> list[int]:
        """The moves worth searching for the observer now: by default every legal one. (Digging
        leaves out a pass that would stall the hand.)"""
        return list(legal)

    def determinise(self, view: SeatView, rng: random.Random) -> GameState:
        """A full state for the next iterations: by default the view's own sampler."""
        return view.sample(rng)

    def step(self, state: GameState, action: int, rng: random.Random) -> None:
        """Apply an action known to be legal in ``state`` (``rng``: for a game that stamps time)."""
        state.apply_action(action)

    def rollout(self, state: GameState, rng: random.Random, depth: int, observer: int) -> list[float]:
        """Play on from ``state`` and return a value in [0, 1] per seat.

        The default plays uniformly random moves to the end of the game,
        ignoring ``depth``, and returns ``state.returns()``.
        """
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_chance(state.sample_chance(rng))
                continue
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
        return state.returns()


def search_game_for(name: str, policy: str) -> SearchGame:
    """The search adapter a game registers (its definition's ``search``), else the generic one."""
    game = registry.get(name)
    if game.search is None:
        return SearchGame()
    factory = load(game.search)
    adapter: SearchGame = factory(policy)
    return adapter


def _keyed(legal: Sequence[int], prior: Sequence[float], keys: Sequence[int] | None) -> dict[int, float]:
    """Priors per move key: moves the observer cannot tell apart share one key and add up."""
    if keys is None:
        return dict(zip(legal, prior, strict=True))
    out: dict[int, float] = {}
    for a, p in zip(legal, prior, strict=True):
        out[keys[a]] = out.get(keys[a], 0.0) + p
    return out


def _keyed_guess(legal: Sequence[int], guessed: tuple[list[int], list[float]],
                 keys: Sequence[int] | None) -> dict[int, float]:  # fmt: skip
    """An observer network's guess (:meth:`NetEvaluator.guess`) as priors per move key.

    The legal moves' priors add up per key, as :func:`_keyed`'s do. A move of another hand only
    rates a key no legal move has: moves the observer cannot tell apart are one move of the
    mover's, whichever hand it holds (an opponent's pass is one pass, of whichever card), so
    their share is this hand's; summed over every hand's moves it would grow with the deck."""
    moves, prior = guessed
    n = len(legal)
    out = _keyed(legal, prior[:n], keys)
    extra: dict[int, float] = {}
    for a, p in zip(moves[n:], prior[n:], strict=True):
        k = a if keys is None else keys[a]
        if k not in out and p > extra.get(k, 0.0):
            extra[k] = p
    out.update(extra)
    return out


class Node:
    """One node of the observer's tree: the move that led here, by ``player``."""

    # mix, reads and deal are set only at the nodes that mix priors (``deals`` above 1), and read
    # only when the search mixes: a plain search's nodes cost what they did before.
    __slots__ = ("avail", "children", "deal", "mix", "n", "player", "prior", "reads", "w")

    def __init__(self, player: int) -> None:
        self.player = player
        self.n = 0
        self.w = 0.0
        self.avail = 1
        self.children: dict[int, Node] = {}
        self.prior: dict[int, float] | None = None
        """With a network: its prior per move key of the player to move here (from the first state met,
        or, with ``deals`` above 1 for another seat, the mean over the deals read so far)."""
        self.mix: dict[int, list[float]]
        """With ``deals`` above 1, at another seat's node: per move key, the sum of its priors and the
        number of deals read in which it was legal."""
        self.reads: int
        """How many deals ``mix`` has read."""
        self.deal: int
        """The last deal read (the search's count of determinisations), so that none is read twice."""

    def chosen(self, legal: Sequence[int]) -> int:
        """The move the search plays from this root: the most visited, ties to the higher total."""
        return max(legal, key=lambda a: (self.children[a].n, self.children[a].w) if a in self.children else (-1, 0.0))

    def values(self) -> dict[int, float]:
        """Each visited move's mean result for the player to move here."""
        return {a: ch.w / ch.n for a, ch in self.children.items() if ch.n}


@dataclass
class ISMCTSBot(Bot):
    """SO-ISMCTS. Budget: ``iterations`` (default 1000 when neither is set) or ``seconds``."""

    name: ClassVar[str] = "ismcts"
    iterations: int | None = param(None, 1, 10_000_000)
    seconds: float | None = param(None, 0.001, 3600.0)
    c: float = param(0.7, 0.0, 10.0)
    """UCB exploration constant (values are in [0, 1])."""
    depth: int = param(8, 0, 200)
    """Rollout length in moves before the position is evaluated."""
    reuse: int = param(4, 1, 1000)
    """Iterations that share one determinisation."""
    policy: str = param("smart", choices=("smart", "fast"))
    """Rollout policy: "smart" (a few rules of thumb) or "fast" (random, minus plainly bad moves)."""
    net: str | None = param(None, choices=networks, files=True)
    """A policy and value network (``default``, or a ``.npz`` path; Digging only): its policy is the prior
    of PUCT selection and the order in which moves are first tried; with ``leaf=net`` its value also
    replaces the rollout."""
    leaf: str = param("rollout", choices=("rollout", "net"))
    """With a network: ``rollout`` keeps the rollout and uses the network as the prior alone;
    ``net`` scores a new node by the network's value instead (measured weaker so far: its value,
    learnt from game results, does not tell one move from its neighbour as the projection does;
    docs/network.md)."""
    prior: str = param("all", choices=("all", "own"))
    """With a network: whose moves its prior guides. ``all``: every seat's (another seat's prior is
    read with the hand the node's first deal gave it, a guess); ``own``: the searching seat's alone,
    whose hand it knows; other seats' moves are then chosen by UCB1, as without a network."""
    deals: int = param(1, 1, 64)
    """With a network and ``prior=all``: how many of the deals that reach another seat's node its
    prior is read from. That seat's hand is a guess in each deal, so one deal's policy leaves out
    every move its guessed hand cannot make. Above 1, the node reads the network again once it
    has been visited 2, 4, 8, ... times, each time on a deal it has not read, up to this many
    deals; a move's prior is its mean over the deals in which it was legal, and a move no deal
    has read gets an even share (one over the moves legal in the deal at hand). The means are
    not normalised: PUCT takes them as they are."""
    others: str | None = param(None, choices=networks, files=True)
    """With a network and ``prior=all``: an observer network (``scripts/train_observer.py``) that
    reads another seat's prior from the searching seat's own view, once per node, in place of the
    guessed hand's view (and of ``deals``): it rates the moves of every guess of that hand, each at
    most as high as the best move of the deal at hand (``NetEvaluator.guess``). Trained on
    partnership games (``scripts/train_observer.py``)."""
    sharpen: float = param(1.0, 0.01, 100.0)
    """With a network: the prior is raised to this power and normalised (the softmax of the logits
    times ``sharpen``). The policy learnt from search visit shares is nearly flat (its favourite
    move is rated about 1.3 times the average), so PUCT hardly follows it at 1; above 1 it leans
    on the network's ranking more (docs/network.md, "How flat the prior is")."""
    clock: Clock | None = field(default=None, repr=False, metadata={"spec": False})
    last_iterations: int = field(default=0, init=False, repr=False, compare=False)

    DEFAULT_ITERATIONS: ClassVar[int] = 1000

    def __post_init__(self) -> None:
        Budget(self.iterations, self.seconds)  # validates
        if self.c < 0 or self.depth < 0 or self.reuse < 1:
            raise ValueError("need c >= 0, depth >= 0 and reuse >= 1")
        if self.net is not None:
            from .net import OBSERVER, kind

            if kind(self.net) == OBSERVER:  # also loads it: a bad network is an error now, not at the first move
                raise ValueError(f"net={self.net} is an observer network: give it as others={self.net}, "
                                 "beside a network for the searching seat's own moves (net=default)")
        if self.leaf == "net" and self.net is None:
            raise ValueError("leaf=net needs a network: add net=default (or a .npz file)")
        if self.prior != "all" and self.net is None:
            raise ValueError(f"prior={self.prior} needs a network: add net=default (or a .npz file)")
        if self.deals != 1 and (self.net is None or self.prior != "all" or self.leaf != "rollout"):
            raise ValueError(f"deals={self.deals} needs a network guiding every seat's moves: add net=default "
                             "(with prior=all and leaf=rollout, the defaults)")
        if self.others is not None:
            from .net import OBSERVER, kind

            if self.net is None or self.prior != "all" or self.leaf != "rollout" or self.deals != 1:
                raise ValueError(f"others={self.others} needs a network guiding every seat's moves and reads each "
                                 "node once: add net=default (with prior=all, leaf=rollout and deals=1, the defaults)")
            if kind(self.others) != OBSERVER:
                raise ValueError(f"others={self.others} is not an observer network (made by "
                                 "scripts/train_observer.py): it reads a seat's own moves, not another's")
        if self.sharpen != 1.0 and self.net is None:
            raise ValueError(f"sharpen={self.sharpen} needs a network: add net=default (or a .npz file)")

    def check_game(self, game: str) -> None:
        if self.net is not None:
            from .net import GAME

            if game != GAME:
                raise ValueError(f"net={self.net}: the networks play {GAME} only, not {game}")

    def budget(self) -> Budget:
        if self.clock is None:
            return Budget(self.iterations, self.seconds)
        return Budget(self.iterations, self.seconds, self.clock)

    def act(self, view: SeatView, rng: random.Random, budget: Budget | None = None) -> int:
        legal = search_game_for(view.game_name, self.policy).root_moves(view, legal_actions_of(view))
        if len(legal) == 1:
            return legal[0]
        return self.search(view, rng, budget or self.budget()).chosen(legal)

    def search(self, view: SeatView, rng: random.Random, budget: Budget, also: Sequence[int] = ()) -> Node:
        """Grow the observer's tree within ``budget`` and return its root.

        ``also``: legal moves to search at the root even where the game leaves them out
        (:meth:`SearchGame.root_moves`), so that a move played can be judged like any other."""
        game = search_game_for(view.game_name, self.policy)
        observer = view.seat
        done = budget.stopper(self.DEFAULT_ITERATIONS)
        root = Node(-1)
        c = self.c
        depth = self.depth
        reuse = self.reuse
        step = game.step
        rollout = game.rollout
        stop_at_chance = game.stop_at_chance
        has_horizon = game.has_horizon
        past_horizon = game.past_horizon
        log = math.log
        sqrt = math.sqrt
        keymaps: dict[int, Sequence[int] | None] = {}
        det: GameState | None = None
        it = 0
        net = None
        everything = legal_actions_of(view)
        considered = game.root_moves(view, everything)
        if also:
            kept = {*considered, *also}
            considered = [a for a in everything if a in kept]
        left_out = frozenset(everything) - frozenset(considered)
        by_value = self.net is not None and self.leaf == "net"
        lazy = not by_value  # with the value leaf, every new node is evaluated anyway
        guide_all = self.prior == "all"
        deals = self.deals
        mixing = deals > 1
        temperature = 1.0 / self.sharpen
        if self.net is not None:
            from .net import evaluator

            net = evaluator(self.net)
            root_prior, _ = net.evaluate(view.data, observer, considered, temperature)
            root.prior = dict(zip(considered, root_prior.tolist(), strict=True))
        guess = None if self.others is None else evaluator(self.others).guess
        while not done(it):
            if it % reuse == 0:
                det = game.determinise(view, rng)
                keymaps.clear()
            assert det is not None
            state = det.clone()
            it += 1
            node = root
            path: list[Node] = []
            expanded = False
            while True:
                player = state.current_player
                if player < 0:
                    if player == CHANCE and not stop_at_chance:
                        state.apply_chance(state.sample_chance(rng))
                        continue
                    break  # terminal, or a chance node the game evaluates
                if has_horizon and past_horizon(state):
                    break
                legal = state.legal_actions()
                if left_out and node is root:
                    legal = [a for a in legal if a not in left_out]
                if player in keymaps:
                    km = keymaps[player]
                else:
                    km = keymaps[player] = game.key_map(state, observer, player)
                children = node.children
                if km is None:
                    keys: Sequence[int] = legal
                else:
                    keys = list(dict.fromkeys([km[a] for a in legal]))
                untried = [k for k in keys if k not in children]
                child: Node | None
                prior = node.prior
                if prior is None and net is not None and node.n >= 1 and lazy and (guide_all or player == observer):
                    # A node's prior is computed on its second visit: most new nodes are visited
                    # once, and the network costs about as much as the rest of an iteration.
                    if guess is not None and player != observer:
                        prior = node.prior = _keyed_guess(legal, guess(state, observer, legal, temperature), km)
                    else:
                        prior = node.prior = _keyed(legal, net.evaluate_state(state, legal, temperature)[0].tolist(),
                                                    km)  # fmt: skip
                    if mixing and player != observer:
                        node.mix = {k: [p, 1.0] for k, p in prior.items()}
                        node.reads = 1
                        node.deal = it // reuse
                elif (
                    mixing and (mix := getattr(node, "mix", None)) is not None and node.reads < deals
                    and node.n >= 1 << node.reads and node.deal != it // reuse
                ):
                    assert net is not None  # a node mixes priors only when a network guides the search
                    node.reads += 1
                    node.deal = it // reuse
                    for k, p in _keyed(legal, net.evaluate_state(state, legal, temperature)[0].tolist(), km).items():
                        if k in mix:
                            mix[k][0] += p
                            mix[k][1] += 1.0
                        else:
                            mix[k] = [p, 1.0]
                    prior = node.prior = {k: total / reads for k, (total, reads) in mix.items()}
                # A move no deal has read yet (only with mixed priors) gets an even share.
                unread = 1.0 / len(keys) if mixing and getattr(node, "mix", None) is not None else 0.0
                if untried:
                    if prior is None:
                        key = untried[rng.randrange(len(untried))]
                    else:  # the move the network likes best first
                        key = max(untried, key=lambda k: prior.get(k, unread))
                    for k in keys:
                        ch = children.get(k)
                        if ch is not None:
                            ch.avail += 1
                    child = children[key] = Node(player)
                    expanded = True
                else:
                    best = -1.0
                    child = None
                    key = keys[0]
                    for k in keys:
                        ch = children[k]
                        ch.avail += 1
                        if prior is None:
                            u = ch.w / ch.n + c * sqrt(log(ch.avail) / ch.n)
                        else:  # PUCT, with availability in place of the parent's visits
                            u = ch.w / ch.n + c * prior.get(k, unread) * sqrt(ch.avail) / (1 + ch.n)
                        if u > best:
                            best = u
                            child = ch
                            key = k
                assert child is not None
                if km is None:
                    action = key
                else:
                    same = [a for a in legal if km[a] == key]
                    action = same[0] if len(same) == 1 else same[rng.randrange(len(same))]
                step(state, action, rng)
                path.append(child)
                node = child
                if expanded:
                    break
            if net is not None and by_value and expanded and state.current_player >= 0:
                mover = state.current_player
                legal = state.legal_actions()
                leaf_prior, value = net.evaluate_state(state, legal, temperature)
                if mover not in keymaps:
                    keymaps[mover] = game.key_map(state, observer, mover)
                if guide_all or mover == observer:
                    node.prior = _keyed(legal, leaf_prior.tolist(), keymaps[mover])
                values = value.tolist()
            else:
                values = rollout(state, rng, 0 if by_value else depth, observer)
            for nd in path:
                nd.n += 1
                nd.w += values[nd.player]
        root.n = it
        self.last_iterations = it
        return root
