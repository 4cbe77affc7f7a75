"""A simulated internet on loopback: many sites with latency, bandwidth caps, dead links, redirects,
slow hosts, and a fake SearXNG answering with URLs from those sites."""
