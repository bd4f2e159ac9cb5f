import os
import sys

# Shared helpers in tests/ (oracle, scenarios) import as top-level modules.
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
