"""The event log: one row (code, a, b, c) per event when ``s[S_LOG_ON]`` (codes: layout.EV_*).

Only ``play``, the golden playthroughs and the rule tests switch the log on; in a run it
costs one flag test per event.
"""

from .jit import hot
from .layout import S_LOG_N, S_LOG_ON


@hot
def ev(st, code, a, b, c):
    s = st.s
    if s[S_LOG_ON]:
        n = s[S_LOG_N]
        if n < st.log.shape[0]:
            st.log[n, 0] = code
            st.log[n, 1] = a
            st.log[n, 2] = b
            st.log[n, 3] = c
            s[S_LOG_N] = n + 1
