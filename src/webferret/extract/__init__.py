"""webferret.extract"""
