"""webferret.search.engines"""
