"""Training Digging's policy and value network by self-play (``goldfields train``).

:mod:`.selfplay` plays games and turns each decision into a training example
(numpy only); :mod:`.trainer` fits the network with PyTorch (the ``learn``
extra) and exports it for :mod:`goldfields.bots.net`, which needs numpy alone.
"""
