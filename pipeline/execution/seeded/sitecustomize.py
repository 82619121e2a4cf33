"""Loaded by every Python service the pipeline starts (its folder is put on PYTHONPATH).

An oracle that draws from `random` (a game's computer move, a shuffled list) would otherwise
answer differently on every run, so whether a test kills a mutant would depend on chance and
the published mutation figures would differ between two builds of the same inputs. Seeding
the module-level generator makes each run of the same requests give the same answers.
"""

import random

random.seed(0)
