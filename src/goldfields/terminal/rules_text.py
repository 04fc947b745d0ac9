"""The rules, as the ``rules`` command prints them.

Shipped as Python text, not read from the repository's docs/ folder, which
an installed package does not have. These are summaries of docs/digging.md
and docs/digger.md (the full rule books); the labels (D1..D9, G1..G6) are
the same, so an engine error such as ``D6: ...`` can be looked up here.
"""

from __future__ import annotations

DIGGING_RULES = """\
# Digging (Reiner Knizia): the rules in short

**Cards (60):** mines `MG` `MS` `MC` (3 each); chests `G` `S` `C` (9 each); double chests
`GG` `SS` `CC` (1 each); closed-mine cards `X` (9); bandits `B1`..`B12`.
Individual games with 2 or 3 players lay aside 4 or 2 single chests of each metal.

**Sides and targets.** Partnership: seats 0+2 (team A) against 1+3 (team B), first to
**60**. Individual: 40 (2 players), 45 (3), 50 (4).

- **D1 Deal.** Six cards each; the rest is the pile. The player left of the dealer starts.
- **D2 A turn is one action:** `draw` the top card of the pile; or `pass` a card face down
  to your partner (partnership only); or `play` a card. With nothing legal you `skip`
  (only then).
- **D3 Opening.** A mine card opens a mine in *any* display: `play MG 2` opens a gold mine
  in seat 2's display. Mines are named m1, m2... in the order they open.
- **D4 Working.** A chest goes on any open mine of its metal, in any display: `play G m1`.
- **D5 Closing.** `X` closes any open mine at once (`play X m1`); its points go to the
  owner of the display it is in.
- **D6 Fights.** Lay a bandit on an opponent's open mine holding a chest
  (`play B7 m3`); only one fight at a time. Every other player's next turn is their one
  chance to join with one bandit. When play returns to the first attacker the fight is
  decided: partnership, attack sum against defence sum, a tie goes to the defence;
  individual, the single highest bandit wins the mine for whoever laid it. The winner
  takes the mine with its chests; all the fight's bandits are discarded. Closing the
  mine during the fight ends it: the last chest laid on it and the bandits are discarded.
- **D7 End of a hand.** After the last card of the pile is drawn, everyone has one more
  turn, ending with the player who drew it.
- **D8 Scoring.** Only closed mines score: gold chest 3, silver 2, copper 1, a double
  chest twice that. If a mine's first chest is a double, every chest in it scores double.
- **D9 The game.** Hands are played until a side has reached its target at the end of a
  hand; the highest total wins (a tie at the top plays another hand).
"""

DIGGER_RULES = """\
# Digger (Roberto Fraga): the rules in short

**On the table:** five dice (blue, yellow, red, green, white, black faces); 50 tokens,
ten each of blue `B` (water), yellow `Y` (gold), red `R` (ruby), green `G` (emerald),
white `W` (diamond), all in the centre; a crate card per player; an hourglass (30 seconds in the
box; this table's is named at the start of the game, and `--time-limit` sets another).

- **G1 Crates.** A crate card says what each gem is worth to its owner. White side (the
  same for all): Y 2, R 3, G 4, W 6. Black side: a different card per player. Blue is
  worth nothing.
- **G2 A turn.** The digger rolls all five dice. Every colour showing on **exactly one
  die** gives one token of that colour from the centre (`take Y`), if the digger wants
  it. If black shows on exactly one die, those gems may instead be stolen from an
  opponent's crate (`steal Y 2`); blue is never stolen. What is taken is the **haul**,
  still at risk. Roll again as often as you dare, or stop.
- **G3 Stopping and the hourglass.** The hourglass starts with the turn's first roll.
  Call stop in time and the haul is banked: gems into your crate, blue into the box.
  If the sand runs out first, the **whole haul goes back to the centre**. The digger
  may not see the hourglass; the others may.
- **G5 Knocking a pile** (an option, off by default): a clumsy steal loses the haul.
- **G6 The end.** When a turn ends with no blue token left in the centre, the game is
  over. Scores: the gems in your crate times your card's values. Highest score wins.

**In the terminal:** `r` rolls, a number takes the move with that number (or type
`take Y`, `steal W 2`), and **Enter** on an empty line (or `s`) stops. The hourglass
runs in real time while you dig, and you cannot see it: count in your head.
"""
