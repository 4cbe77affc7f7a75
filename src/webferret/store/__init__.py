"""webferret.store"""
