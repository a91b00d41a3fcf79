"""The information pages (spec U6): how to play, tips, FAQ, history, multi-player, comment rules."""
