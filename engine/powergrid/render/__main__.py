"""`python -m engine.powergrid.render`: recompute every map's layout file."""

from engine.powergrid.render.layout import write_layouts

for written in write_layouts():
    print(f"wrote {written}")
