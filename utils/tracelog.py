"""Write TORCH_TRACE logs the way torch._logging does (FORMAT.md section 1).

Used by utils/gen-fixtures.py. Each event is a glog-style prefix, one space,
the JSON envelope (json.dumps defaults), then the payload as lines that each
start with one TAB. has_payload is the md5 of the payload text.
"""
import hashlib
import json


class TraceLog:
    def __init__(self, pid=4242, month_day="0819", hour=12):
        self.lines = []
        self.pid = pid
        self.md = month_day
        self.hour = hour
        self.tick = 0

    def _prefix(self, path, lineno):
        self.tick += 7
        minute, rest = divmod(self.tick, 60000)
        sec, ms = divmod(rest, 1000)
        return "V%s %02d:%02d:%02d.%03d000 %d %s:%d]" % (
            self.md, self.hour, minute % 60, sec, ms, self.pid, path, lineno)

    def event(self, kind, meta=None, cid=None, rank=None, stack=None,
              payload=None, path="torch/_inductor/compile_fx.py", lineno=1000,
              md5=None):
        """cid: (frame_id, frame_compile_id, attempt) or a dict of fields."""
        record = {kind: {} if meta is None else meta}
        if rank is not None:
            record["rank"] = rank
        if stack is not None:
            record["stack"] = stack
        elif cid is not None:
            if isinstance(cid, dict):
                record.update(cid)
            else:
                frame, fcid, attempt = cid
                record["frame_id"] = frame
                record["frame_compile_id"] = fcid
                record["attempt"] = attempt
        if payload is not None:
            record["has_payload"] = md5 or hashlib.md5(
                payload.encode("utf-8", "surrogateescape")).hexdigest()
        line = self._prefix(path, lineno) + " " + json.dumps(record)
        self.lines.append(line)
        if payload is not None:
            for p in payload.split("\n"):
                self.lines.append("\t" + p)

    def artifact(self, name, payload, encoding="string", **kw):
        self.event("artifact", {"name": name, "encoding": encoding},
                   payload=payload, **kw)

    def str_entry(self, s, index):
        self.lines.append(self._prefix("torch/_logging/structured.py", 28) +
                          " " + json.dumps({"str": [s, index]}))

    def raw(self, line):
        self.lines.append(line)

    def text(self):
        return "\n".join(self.lines) + "\n"
