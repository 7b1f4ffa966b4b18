"""How will the fire go? Many seeded runs of one scenario with heroes following a plan, counted.

:func:`forecast` plays ``runs`` scenes of at most ``rounds`` rounds each, through the same
scene loop as ``fuego run`` (:func:`fuego.engine.loop.run`), with its heroes following the GM's
plans (:mod:`fuego.engine.plans`: flee, the automatic heroes of ``fuego run``, unless told
otherwise; scripted where the scenario has ``actions:``, the plan where the script is
silent), and counts per round what burns and what happens to the heroes, and how each run
ended. It prints nothing: ``fuego forecast`` shows the numbers,
:mod:`fuego.render.forecast_plot` draws them.

The package, one concept a module:

- :mod:`~fuego.forecast.counts`: what a run adds (:class:`~fuego.forecast.counts.Run`) and the
  integer totals (:class:`~fuego.forecast.counts.Counts`);
- :mod:`~fuego.forecast.play`: one run's play (:func:`~fuego.forecast.play.play_run`) and its
  seed (:func:`run_seed`);
- :mod:`~fuego.forecast.units`: the work units an executor hands out;
- :mod:`~fuego.forecast.executors`, :mod:`~fuego.forecast.pool`,
  :mod:`~fuego.forecast.cluster`: who plays them (this process, worker processes, a Dask
  cluster);
- :mod:`~fuego.forecast.interrupts`: the Ctrl-Cs a forecast counts itself, so none is lost;
- :mod:`~fuego.forecast.levers`: what matters: what each hero went through in the runs where
  they went down, against the rest;
- :mod:`~fuego.forecast.result`: the counts as chances, medians and intervals, and their JSON;
- :mod:`~fuego.forecast.runner`: :func:`~fuego.forecast.runner.forecast`, which ties them
  together;
- :mod:`~fuego.forecast.sweep`: what-if sweeps, the variants of one scenario side by side.

Reproducible, whatever plays the runs: run ``i`` (0-based) plays the scene built with seed
``Roller(seed).spawn(i).seed``, that is ``(seed * 1_000_003 + i) mod 2**48``, and nothing
else; every statistic is an integer count, divided by ``runs`` only at the very end, so
``--jobs 1`` and ``--jobs 8`` give the same numbers to the last bit. Ctrl-C stops every worker
at once; the runs finished come back in :class:`ForecastInterrupted`.
"""
