"""``python -m saltus.siconos SCRIPT.py [ARGS]``: runs a Siconos script unchanged on Saltus."""

import os
import sys


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    if not argv or argv[0] in ("-h", "--help"):
        print("usage: python -m saltus.siconos SCRIPT.py [ARGS...]\n\n"
              "Runs a Siconos 4.4 script with `import siconos...` resolved to Saltus.")
        return 0 if argv else 2
    script = argv[0]
    if not os.path.isfile(script):
        print(f"python -m saltus.siconos: no such script: {script}", file=sys.stderr)
        return 2
    from . import install, run_script

    install()
    # as `python SCRIPT.py`: the script's folder replaces the entry -m put first on sys.path
    if sys.path and sys.path[0] in ("", os.getcwd()):
        del sys.path[0]
    run_script(script, argv[1:])
    return 0


if __name__ == "__main__":
    sys.exit(main())
