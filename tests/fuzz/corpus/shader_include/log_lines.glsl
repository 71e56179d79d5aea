  #include <self>
0:3(5): error: x
1(4) : error C0000: y
0:1048580(2): error
