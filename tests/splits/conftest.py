import sys
from pathlib import Path

# Let the test modules import tiny_store whatever pytest's import mode is.
sys.path.insert(0, str(Path(__file__).parent))
