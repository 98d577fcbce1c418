`make gpu-report` (its compare step)
