"""The course furniture: exercises and their checks, display (figures, widgets), the lab.

Nothing here is an idea a lesson teaches: the lessons' ideas are in ``helpers/``. This package
arranges and checks; it imports ``helpers`` (and the stand-in, to run a learner's answer
against the stand-in), never the other way round.
"""
