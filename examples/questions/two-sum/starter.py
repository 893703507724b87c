def two_sum(nums, target):
    """Return (i, j) with nums[i] + nums[j] == target."""
    pass


print(two_sum([2, 7, 11, 15], 9))
