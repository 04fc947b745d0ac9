"""Train a small masked PPO agent (numpy) for one hand of 2-player Digging and beat `random`.

    python examples/train_digging.py --minutes 4 --seed 0

Trains on the Gymnasium environment ``goldfields/DiggingHand-v0`` (the agent's
seat drawn at random each game, the other seat played by the ``random`` bot),
evaluates the greedy policy over 400 games with a 95% Wilson interval and
saves the learning curve to docs/img/learning_curve.png. See
goldfields.research.train for the algorithm and docs/research.md for the
figures. Needs numpy, gymnasium and matplotlib.
"""

from goldfields.research.train import main

if __name__ == "__main__":
    main()
